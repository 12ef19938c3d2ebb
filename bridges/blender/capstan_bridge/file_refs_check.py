"""The file-reference check: after a command brings datablocks from a file, before
anything evaluates them, and again before a render.

What is checked is `file_refs.file_references` judged by `file_refs.problem_of`: an input
outside the read roots, an output outside the session output folder, a path the node
tree computes, OSL code. The OS confinement (DESIGN.md section 3a) is the wall; this
check is what the agent is told, and it keeps a refused file from being evaluated at all.

When the check runs, and why there:

- `open_blend`: the file is first read into a temporary Main (`bpy.data.temp_data`,
  never evaluated) and scanned there; with problems the command refuses and the session
  keeps its scene. Opening a file evaluates its depsgraph inside the operator (Blender
  4.5 and 5.x both do, before the operator returns), so the opened Main is scanned again
  from a `load_post` handler, which Blender runs before that evaluation: whatever it
  finds is detached there, before a node can read a file, and unless detaching was asked
  for the command then refuses and leaves an empty scene.
- `append_from_blend`: scanned in a temporary Main first (refused: nothing appended);
  the appended datablocks are scanned again before the command returns (appending
  evaluates nothing): refused, they are removed again.
- `import_file`: importers build datablocks themselves, so only the new datablocks are
  scanned, before the command returns; refused, they are removed.
- renders, bakes, exports and simulations: the whole Main, before Blender evaluates it.

The render output path a scene stores is not a reason to refuse a file: every
.blend saved from Blender's factory settings has `/tmp/`, and no capstan command writes
there (renders set their own path in the output folder, and the check before a render
judges that path). Detaching resets it anyway.

Detaching (`detach_outside_references: true`, or `detach_file_references`) clears the
path, removes the node, strip or library, turns a disk cache off or moves it into the
output folder; what it cannot detach keeps the command refused.
"""

import os

import bpy

from . import file_refs
from .core import schema as s
from .errors import CommandError

CODE = "outside_file_references"
MAX_NAMED = 20
MAX_PATH_SHOWN = 240
UI_COLLECTIONS = ("window_managers", "workspaces", "screens")

REFERENCE = s.obj({
    "kind": s.enum(file_refs.KINDS),
    "direction": s.enum((file_refs.INPUT, file_refs.OUTPUT), description="input: Blender reads it; output: Blender writes there"),
    "datablock_type": s.string(description="The ID type holding it (IMAGE, NODETREE, MATERIAL, SCENE, OBJECT, ...)"),
    "datablock": s.string(),
    "library": s.nullable(s.string(description="The library file a linked datablock comes from")),
    "node": s.nullable(s.string()),
    "detail": s.nullable(s.string(description="Where in the datablock: socket, modifier, strip, compositor of a scene")),
    "path": s.string(description="As stored ('' for a computed path or an internal OSL script)"),
    "absolute": s.nullable(s.string(description="Resolved: // against the .blend, symlinks and .. followed")),
    "computed": s.boolean(description="The path comes from the node tree and cannot be checked"),
    "packed": s.boolean(description="The data is packed in the .blend; the path is not read"),
    "script": s.nullable(s.string(description="The text datablock of an internal OSL script")),
    "problem": s.nullable(s.string(description="Why capstan refuses it: " + "; ".join("%s: %s" % kv for kv in file_refs.PROBLEMS.items()))),
}, required=("kind", "direction", "datablock_type", "datablock", "library", "node", "detail", "path", "absolute",
             "computed", "packed", "script", "problem"))

DETACHED = dict(REFERENCE, properties=dict(REFERENCE["properties"], action=s.string(
    description="cleared, removed_node, removed_library, removed_strip, removed_layer, replaced_by_builtin, reset, disabled, packed")),
    required=REFERENCE["required"] + ["action"])

DETACH_PARAM = s.boolean(description="true: load the file with every file reference outside the read roots or the output "
                                     "folder detached (path cleared, node or strip removed, cache off) and list them in "
                                     "`detached`; false (default): refuse such a file")


def reference_dict(ref, problem):
    out = ref.as_dict()
    out["problem"] = problem
    return out


def problems(refs, output_dir, render_scene=None, render_outputs=False):
    """[(ref, problem)] of the references that may not stay. Stored render output paths
    count only for `render_scene` (its path is the one about to be written) or with
    `render_outputs` (detaching)."""
    found = []
    for ref in refs:
        if ref.kind == "render_output" and not render_outputs and (render_scene is None or ref.owner != render_scene):
            continue
        problem = file_refs.problem_of(ref, output_dir)
        if problem is not None:
            found.append((ref, problem))
    return found


def describe(ref, problem):
    path = ref.path if len(ref.path) <= MAX_PATH_SHOWN else ref.path[:MAX_PATH_SHOWN] + "..."
    if problem == "computed_path":
        return "%s reads a path its node tree computes, which cannot be checked" % ref.label()
    if problem == "osl_code":
        return "%s is OSL code, which the render runs and which opens files by name (the scene renders with OSL)" % ref.label()
    verb = "reads" if ref.direction == file_refs.INPUT else "writes into"
    shown = repr(path)
    if ref.absolute and ref.absolute != ref.path and problem != "unresolvable_path":
        shown += " (resolved %r)" % (ref.absolute[:MAX_PATH_SHOWN])
    return "%s %s %s, which %s" % (ref.label(), verb, shown, file_refs.PROBLEMS[problem])


def refusal(subject, lines, closing):
    """The CommandError naming each reference (`lines` as `describe` wrote them)."""
    named = lines[:MAX_NAMED]
    more = " ... and %d more (list_file_references lists them all)" % (len(lines) - MAX_NAMED) if len(lines) > MAX_NAMED else ""
    return CommandError(CODE, "%s refers to %d file%s outside the folders capstan may use: %s%s. %s" % (
        subject, len(lines), "" if len(lines) == 1 else "s", "; ".join(named), more, closing))


def detach(found, output_dir):
    """Detach each reference in place; the answer's `detached` entries. A reference
    that went with an earlier one (its library was removed) is skipped."""
    done = []
    for ref, problem in found:
        try:
            entry = reference_dict(ref, problem)
            action = ref.detach(output_dir)
        except ReferenceError:
            continue  # removed with its library or node
        if action is not None:
            entry["action"] = action
            done.append(entry)
    return done


def detach_scene(output_dir, owners=None):
    """Detach everything refused in bpy.data (and the render outputs outside the output
    folder); returns (detached entries, [(ref, problem)] still refused afterwards)."""
    refs = file_refs.file_references(owners=owners)
    done = detach(problems(refs, output_dir, render_outputs=True), output_dir)
    left = problems(file_refs.file_references(owners=owners), output_dir)
    return done, left


# -- IDs --------------------------------------------------------------------------------

def id_collections(data, skip=()):
    """The names of `data`'s ID collections (objects, images, node_groups, ...)."""
    names = []
    for prop in data.bl_rna.properties:
        if prop.type != "COLLECTION" or prop.identifier in skip:
            continue
        cls = getattr(bpy.types, prop.fixed_type.identifier, None)
        if isinstance(cls, type) and issubclass(cls, bpy.types.ID):
            names.append(prop.identifier)
    return names


def id_uids(data=None):
    data = bpy.data if data is None else data
    return {block.session_uid for attr in id_collections(data) for block in getattr(data, attr)}


def remove_new(before):
    """Remove every datablock created since `before` (a set of session_uids)."""
    new = [block for attr in id_collections(bpy.data) for block in getattr(bpy.data, attr)
           if block.session_uid not in before]
    if new:
        bpy.data.batch_remove(new)


# -- before loading: a temporary Main -----------------------------------------------------

def prescan(ctx, real, attr=None, names=None, link=False):
    """Read `real` (all of it, or `names` of `attr`) into a temporary Main and describe
    what the check refuses there: [description]. Nothing reaches the session and nothing
    is evaluated. The temporary Main is given a file name beside `real`, so relative
    paths keep meaning what they mean in `real`."""
    beside = os.path.join(os.path.dirname(real), ".capstan-scan-" + os.path.basename(real))
    with bpy.data.temp_data(filepath=beside) as temp:
        with temp.libraries.load(real, link=link) as (src, dst):
            if attr is None:
                for name in id_collections(temp, UI_COLLECTIONS):
                    if hasattr(src, name):
                        setattr(dst, name, list(getattr(src, name)))
            else:
                setattr(dst, attr, [n for n in names if n in getattr(src, attr)])
        refs = file_refs.file_references(temp, blend_path=real)
        return [describe(ref, problem) for ref, problem in problems(refs, ctx.output_dir)]


# -- opening: the load_post handler -------------------------------------------------------

class OpenGuard:
    """Scans the Main `wm.open_mainfile` loads, from `load_post`, before Blender
    evaluates it. With problems it detaches them right there (so the evaluation that
    follows reads and writes nothing outside), then: with `detach_asked` the file stays
    open with `detached` listed; without it, `refused` is set and the caller replaces
    the scene with an empty one. A scan that fails counts as refused."""

    def __init__(self, output_dir, detach_asked, subject):
        self.output_dir, self.detach_asked, self.subject = output_dir, detach_asked, subject
        self.detached, self.lines, self.refused, self.failure = [], [], False, None

    def __enter__(self):
        def loaded(*args):
            self._loaded()

        # persistent: Blender drops other handlers while it loads a file.
        self._handler = bpy.app.handlers.persistent(loaded)
        bpy.app.handlers.load_post.append(self._handler)
        return self

    def __exit__(self, *exc):
        if self._handler in bpy.app.handlers.load_post:
            bpy.app.handlers.load_post.remove(self._handler)
        return False

    def _loaded(self):
        try:
            found = problems(file_refs.file_references(), self.output_dir)
            self.lines = [describe(ref, problem) for ref, problem in found]
            if not found and not self.detach_asked:
                return
            self.detached, left = detach_scene(self.output_dir)
            if left:
                self.lines += [describe(ref, problem) for ref, problem in left]
                self._remove_owners(left)
            self.refused = bool(left) or (bool(found) and not self.detach_asked)
        except Exception as e:  # fail closed: the caller empties the scene
            self.refused, self.failure = True, "%s: %s" % (type(e).__name__, e)

    @staticmethod
    def _remove_owners(left):
        """What cannot be detached goes with its datablock (a scene stays: the caller
        empties the file anyway)."""
        owners = {ref.owner.session_uid: ref.owner for ref, _ in left if ref.owner.id_type != "SCENE"}
        if owners:
            bpy.data.batch_remove(list(owners.values()))

    def error(self):
        if self.failure:
            return CommandError(CODE, "capstan could not check the file references of %s (%s); the session is now an empty "
                                      "scene" % (self.subject, self.failure))
        return refusal(self.subject, self.lines, "Nothing of it stays loaded: the session is now an empty scene.")


# -- after an append or an import ----------------------------------------------------------

def check_new(ctx, before, detach_asked, subject):
    """Check the datablocks created since `before` (session_uids); refused: they are
    removed again. Returns the `detached` entries."""
    new = id_uids() - before
    found = problems(file_refs.file_references(owners=new), ctx.output_dir)
    if not found:
        return []
    lines = [describe(ref, problem) for ref, problem in found]
    if detach_asked:
        done, left = detach_scene(ctx.output_dir, owners=new)
        if not left:
            return done
        lines = [describe(ref, problem) for ref, problem in left]
    remove_new(before)
    raise refusal(subject, lines, "What it brought in was removed again; %s" % (
        "these cannot be detached." if detach_asked else "pass detach_outside_references: true to keep it with these detached."))


# -- before evaluating: renders, bakes, exports, simulations ------------------------------

def check_scene(ctx, doing, render_scene=None):
    """Refuse `doing` (a render, a bake, ...) while bpy.data holds a refused reference.
    `render_scene`: the scene about to render, whose output path (set by the command)
    must lie in the output folder."""
    found = problems(file_refs.file_references(), ctx.output_dir, render_scene=render_scene)
    if found:
        raise refusal("the scene", [describe(ref, problem) for ref, problem in found],
                      "%s would read or write them, so it did not start; detach_file_references detaches them." % doing)
