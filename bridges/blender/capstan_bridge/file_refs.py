"""Every file a scene refers to: the one scanner of the add-on.

`file_references(data)` lists what a Main (`bpy.data`, or a temporary Main a .blend was
read into) makes Blender read or write by itself: datablocks with a file (images,
sounds, fonts, movie clips, libraries, cache files and their layers, volumes, texts),
nodes with a file (Geometry Nodes import nodes and any other node with a file-path
socket or property, OSL script and IES nodes, compositor File Output nodes), modifier
caches (point caches on disk, fluid caches, Geometry Nodes bakes, mesh caches, ocean
caches), sequencer strips, and per scene the render output path and the bake output.
Whatever Blender's own path walker (`bpy.data.file_path_map`) knows beyond these is
listed as `other`. The check before a load or a render (`file_refs_check`), the
`list_file_references` command and `rewrite_file_paths` / `pack_images` (`commands/paths.py`)
all use this one list. Where a reference's path is stored in one plain property,
`ref.stored` names it (holder, attribute), so a path can be rewritten in place.

Why a list and not a denylist of node types: Blender's C code opens these files
itself (a `.blend` needs no Python to read /etc/passwd through an Import Text node or
to write an EXR through a File Output node), so the add-on must know every place a
path sits before anything evaluates the data. New `GeometryNodeImport*` nodes are
found by their file-path socket, not by name.

How a path is judged (`problem_of`), with the rules of `paths.py`:

- the stored path is resolved the way Blender resolves it: `//` against the folder of
  the .blend (or of the library the datablock comes from), other relative paths
  against the working folder, backslashes read as separators, then symlinks and `..`
  resolved in order (`os.path.realpath`), so a link inside a root that points out of
  it counts as out;
- an input must then lie under a read root (`paths.readable`; a missing file under a
  root is fine);
- an output (a folder a File Output node, a disk cache or the render writes into) must
  lie inside the session output folder (`paths.inside`);
- a path Blender computes (an import node whose path socket is linked, a template
  variable whose value may hold a separator, a `//` path of an unsaved file) cannot
  be checked and is refused as such;
- packed data is read from the .blend, not from its path: listed, never refused;
- OSL script nodes are refused while a scene renders with OSL: OSL code opens texture
  files by name, which no path check sees.

Nothing is evaluated: the scan reads original data only.
"""

import os
import re

import bpy

from .core import paths

INPUT, OUTPUT = "input", "output"
KINDS = ("image", "sound", "font", "movie_clip", "library", "cache_file", "volume", "text",
         "geometry_import", "node_file_path", "osl_script", "ies", "file_output",
         "render_output", "bake_output", "point_cache", "fluid_cache", "geometry_bake",
         "mesh_cache", "ocean_cache", "sequencer_strip", "other")
PROBLEMS = {
    "outside_read_roots": "is outside the read roots",
    "outside_output_folder": "is outside the session output folder",
    "computed_path": "is computed by the node tree, so it cannot be checked",
    "unresolvable_path": "cannot be resolved to a folder (a template value with a separator, or a // path of an unsaved file)",
    "osl_code": "is OSL code the render runs, which opens files by name",
}

_FILE_DATABLOCKS = (  # (bpy.data collection, kind); images, fonts and libraries have their own rules
    ("sounds", "sound"), ("movieclips", "movie_clip"), ("volumes", "volume"))
_EMBEDDED_TREES = ("materials", "worlds", "lights", "linestyles", "textures", "scenes")
_TEMPLATED_KINDS = ("render_output", "file_output")
_TEMPLATE = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?::[^{}]*)?\}|[{}]")
_NUMERIC_VARS = ("fps", "resolution_x", "resolution_y")


class FileRef:
    """One file reference. `detach(output_dir)` makes it harmless in place (clears the
    path, removes the node or the library, turns the disk cache off or moves it into the
    output folder) and returns what it did, or None when it cannot."""

    def __init__(self, kind, owner, path, direction, node=None, detail=None, computed=False, packed=False, script=None):
        self.kind, self.owner, self.path, self.direction = kind, owner, path, direction
        self.node, self.detail, self.computed, self.packed, self.script = node, detail, computed, packed, script
        self.absolute = None      # the resolved target (for outputs: the file or folder written)
        self.folder = None        # outputs: the folder written into, resolved
        self.unresolvable = False
        self.osl_active = False
        self.stored = None        # (holder, attribute) of the stored path, when it is one plain property
        self._detach = None

    def as_dict(self):
        owner = self.owner
        return {
            "kind": self.kind, "direction": self.direction, "datablock_type": owner.id_type, "datablock": owner.name,
            "library": owner.library.filepath if owner.library is not None else None,
            "node": self.node, "detail": self.detail, "path": self.path, "absolute": self.absolute,
            "computed": self.computed, "packed": self.packed, "script": self.script,
        }

    def label(self):
        """`image 'Secret'`, `geometry_import node 'Import Text' in NODETREE 'Leak'`."""
        owner = self.owner
        where = "%s %r" % (owner.id_type, owner.name)
        if owner.library is not None:
            where += " (linked from %r)" % owner.library.filepath
        text = "%s node %r in %s" % (self.kind, self.node, where) if self.node else "%s of %s" % (self.kind, where)
        return text + (" (%s)" % self.detail if self.detail else "")

    def detach(self, output_dir):
        if self.owner.library is not None and self.kind != "library":
            bpy.data.libraries.remove(self.owner.library)  # linked data is read-only: its library goes
            return "removed_library"
        return self._detach(output_dir) if self._detach is not None else None


def file_references(data=None, blend_path=None, owners=None):
    """Every file reference of `data` (default `bpy.data`), paths resolved against
    `blend_path` (default the Main's own file). `owners`: only references of these
    datablocks (a set of `session_uid`s), e.g. what an import just created."""
    data = bpy.data if data is None else data
    base = os.path.dirname(blend_path if blend_path is not None else data.filepath) or None
    blend_name = os.path.splitext(os.path.basename(blend_path if blend_path is not None else data.filepath))[0]
    scan = _Scan(data, base, blend_name, owners)
    scan.run()
    return scan.refs


def problem_of(ref, output_dir):
    """None when the reference may stay, else a key of PROBLEMS."""
    if ref.computed:
        return "computed_path"
    if ref.osl_active:
        return "osl_code"
    if ref.packed or not (ref.path or ref.unresolvable):
        return None
    if ref.unresolvable or ref.absolute is None:
        return "unresolvable_path"
    if ref.direction == OUTPUT:
        out = os.path.realpath(output_dir)
        return None if paths.inside(ref.folder, out) else "outside_output_folder"
    try:
        paths.readable(output_dir, ref.absolute)
    except paths.PathRefused:
        return "outside_read_roots"
    except paths.InputMissing:
        pass
    return None


# -- resolving --------------------------------------------------------------------------

def _joined(raw, base):
    """The stored path as an absolute path, the way Blender resolves it (None: `//`
    with no .blend to resolve it against)."""
    raw = raw.replace("\\", "/")
    if raw.startswith("//"):
        return os.path.join(base, raw[2:]) if base else None
    return raw if os.path.isabs(raw) else os.path.join(os.getcwd(), raw)


joined = _joined  # public: `paths` commands resolve a rewritten path the same way


def _folder_of(joined):
    head, tail = os.path.split(joined)
    return joined if tail in ("", ".", "..") else head


class _Scan:
    def __init__(self, data, base, blend_name, owners):
        self.data, self.base, self.blend_name, self.owners = data, base, blend_name, owners
        self.refs = []
        self.osl_on = any(getattr(getattr(sc, "cycles", None), "shading_system", False) for sc in data.scenes)

    def run(self):
        self._datablocks()
        for owner, tree, detail in self._trees():
            self._tree(owner, tree, detail)
        for obj in self.data.objects:
            if self._wanted(obj):
                self._object(obj)
        for sc in self.data.scenes:
            if self._wanted(sc):
                self._scene(sc)
        self._others()

    def _wanted(self, owner):
        return self.owners is None or owner.session_uid in self.owners

    # -- recording ----------------------------------------------------------------------

    def add(self, kind, owner, path, direction, detach=None, node=None, detail=None, computed=False, packed=False,
            script=None, template_values=None, stored=None):
        if not self._wanted(owner):
            return None
        ref = FileRef(kind, owner, path, direction, node, detail, computed, packed, script)
        ref._detach = detach
        ref.stored = stored if stored is not None else getattr(detach, "stored", None)
        if not computed and path:
            self._resolve(ref, template_values)
        self.refs.append(ref)
        return ref

    def _base_of(self, owner):
        lib = owner.library if owner is not None else None
        if lib is None:
            return self.base
        joined = _joined(lib.filepath, self.base)
        return os.path.dirname(joined) if joined else None

    def _resolve(self, ref, template_values):
        path = ref.path
        if ref.kind in _TEMPLATED_KINDS:
            path = self._expand(path, ref, template_values or {})
            if path is None:
                ref.unresolvable = True
                return
        joined = _joined(path, self._base_of(ref.owner))
        if joined is None:
            ref.unresolvable = True
            return
        ref.absolute = os.path.realpath(joined)
        if ref.direction == OUTPUT:
            ref.folder = os.path.realpath(_folder_of(joined))

    def _expand(self, path, ref, values):
        """Blender's path templates (render output, File Output): numbers become `0`;
        names become `x` when no value they may take holds a separator or is `.`/`..`;
        folders become the folder. Anything else cannot be checked (None)."""
        lib = ref.owner.library if ref.owner is not None else None
        blend_dir = self.base
        names = {
            "blend_name": [self.blend_name],
            "blend_name_lib": [os.path.splitext(os.path.basename(lib.filepath))[0]] if lib else [self.blend_name],
            "scene_name": [sc.name for sc in self.data.scenes],
            "camera_name": [o.name for o in self.data.objects if o.type == "CAMERA"],
        }
        names.update(values)
        dirs = {"blend_dir": blend_dir, "blend_dir_lib": self._base_of(ref.owner)}
        failed = []

        def sub(m):
            token, var = m.group(0), m.group(1)
            if token in ("{{", "}}"):
                return token[0]
            if var is None:
                failed.append(token)
            elif var in _NUMERIC_VARS:
                return "0"
            elif var in names and all("/" not in v and "\\" not in v and v not in (".", "..") for v in names[var]):
                return "x"
            elif var in dirs and dirs[var]:
                return dirs[var]
            else:
                failed.append(token)
            return ""

        expanded = _TEMPLATE.sub(sub, path)
        return None if failed else expanded

    # -- datablocks -----------------------------------------------------------------------

    def _datablocks(self):
        d = self.data
        for im in d.images:
            if im.source in ("FILE", "SEQUENCE", "MOVIE", "TILED") and im.filepath:
                self.add("image", im, im.filepath, INPUT, _clear(im, "filepath", free=True), packed=bool(im.packed_files))
        for attr, kind in _FILE_DATABLOCKS:
            for block in getattr(d, attr):
                if block.filepath:
                    self.add(kind, block, block.filepath, INPUT, _clear(block, "filepath"),
                             packed=getattr(block, "packed_file", None) is not None)
        for font in d.fonts:
            if font.filepath and font.filepath != "<builtin>":
                self.add("font", font, font.filepath, INPUT, _builtin_font(d, font), packed=font.packed_file is not None,
                         stored=(font, "filepath"))
        for lib in d.libraries:
            self.add("library", lib, lib.filepath, INPUT, _remove(d.libraries, lib, "removed_library"),
                     packed=getattr(lib, "packed_file", None) is not None, stored=(lib, "filepath"))
        for cache in d.cache_files:
            if cache.filepath:
                self.add("cache_file", cache, cache.filepath, INPUT, _clear(cache, "filepath"))
            for layer in getattr(cache, "layers", ()):
                if layer.filepath:
                    self.add("cache_file", cache, layer.filepath, INPUT, _remove(cache.layers, layer, "removed_layer"),
                             detail="layer")
        for text in d.texts:
            if text.filepath and not text.is_in_memory:
                self.add("text", text, text.filepath, INPUT, _clear(text, "filepath"))

    # -- node trees -----------------------------------------------------------------------

    def _trees(self):
        for group in self.data.node_groups:
            users = [sc.name for sc in self.data.scenes if getattr(sc, "compositing_node_group", None) == group]
            yield group, group, ("compositor of scene %s" % ", ".join(map(repr, users))) if users else None
        for attr in _EMBEDDED_TREES:
            for owner in getattr(self.data, attr):
                tree = getattr(owner, "node_tree", None)
                if tree is not None:
                    yield owner, tree, "compositor" if attr == "scenes" else None

    def _tree(self, owner, tree, detail):
        if not self._wanted(owner):
            return
        nodes = tree.nodes
        for node in nodes:
            idname = node.bl_idname
            if idname == "CompositorNodeOutputFile":
                self._file_output(owner, nodes, node, detail)
                continue
            if idname == "ShaderNodeScript":
                ref = self.add("osl_script", owner, node.filepath if node.mode == "EXTERNAL" else "", INPUT,
                               _remove(nodes, node, "removed_node"), node=node.name, detail=detail,
                               script=node.script.name if node.mode == "INTERNAL" and node.script else None)
                ref.osl_active = self.osl_on
                continue
            if idname == "ShaderNodeTexIES":
                if node.mode == "EXTERNAL" and node.filepath:
                    self.add("ies", owner, node.filepath, INPUT, _remove(nodes, node, "removed_node"), node=node.name, detail=detail,
                             stored=(node, "filepath"))
                continue
            kind = "geometry_import" if idname.startswith("GeometryNodeImport") else "node_file_path"
            for sock in node.inputs:
                if sock.bl_idname.startswith("NodeSocketStringFilePath"):
                    if sock.is_linked:
                        self.add(kind, owner, "", INPUT, _remove(nodes, node, "removed_node"), node=node.name,
                                 detail=_join(detail, "socket %r" % sock.name), computed=True)
                    elif sock.default_value:
                        self.add(kind, owner, sock.default_value, INPUT, _clear(sock, "default_value"), node=node.name,
                                 detail=_join(detail, "socket %r" % sock.name))
            for prop in node.bl_rna.properties:
                if prop.type == "STRING" and prop.subtype in ("FILE_PATH", "DIR_PATH") and not prop.is_readonly:
                    value = getattr(node, prop.identifier)
                    if value:
                        self.add("node_file_path", owner, value, INPUT, _clear(node, prop.identifier), node=node.name,
                                 detail=_join(detail, prop.identifier))

    def _file_output(self, owner, nodes, node, detail):
        """A File Output node writes `base_path/slot path` (4.5) or
        `directory/file_name + item name` (5.x), plus frame and extension: every target's
        folder must be inside the output folder."""
        remove = _remove(nodes, node, "removed_node")
        values = {"node_name": [node.name]}
        if hasattr(node, "directory"):
            folder, names = node.directory, [node.file_name + item.name for item in node.file_output_items] + [node.file_name]
        else:
            folder, names = node.base_path, [slot.path for slot in node.file_slots] + [""]
        # Blender joins the two by concatenation; a name that is itself absolute is
        # also checked as it would read on its own, whichever way a version joins them.
        # The folder itself is a target too: a multilayer EXR is written as `folder` + frame.
        targets = [folder.rstrip("/\\") + "/" + name for name in names] + [name for name in names if os.path.isabs(name)]
        seen = set()
        for target in dict.fromkeys(targets + [folder]):
            ref = self.add("file_output", owner, target, OUTPUT, remove, node=node.name, detail=detail, template_values=values)
            key = (ref.folder, ref.unresolvable) if ref is not None else None
            if key in seen:
                self.refs.remove(ref)  # the same folder as an earlier target of this node
            seen.add(key)

    # -- objects: modifier caches -------------------------------------------------------

    def _object(self, obj):
        for mod in obj.modifiers:
            if mod.type == "NODES":
                self._geometry_bakes(obj, mod)
            elif mod.type == "FLUID" and mod.fluid_type == "DOMAIN" and mod.domain_settings.cache_directory:
                self.add("fluid_cache", obj, mod.domain_settings.cache_directory, OUTPUT, _fluid_reset(obj, mod),
                         detail="modifier %r" % mod.name)
            elif mod.type == "MESH_CACHE" and mod.filepath:
                self.add("mesh_cache", obj, mod.filepath, INPUT, _clear(mod, "filepath"), detail="modifier %r" % mod.name)
            elif mod.type == "OCEAN" and mod.filepath:
                self.add("ocean_cache", obj, mod.filepath, INPUT, _clear(mod, "filepath"), detail="modifier %r" % mod.name)
        for where, cache in _point_caches(obj):
            self._point_cache(obj, where, cache)

    def _geometry_bakes(self, obj, mod):
        for bake in mod.bakes:
            target = mod.bake_target if bake.bake_target == "INHERIT" else bake.bake_target
            folder = bake.directory if bake.use_custom_path else mod.bake_directory
            if target == "DISK" and folder:
                holder = bake if bake.bake_target != "INHERIT" else mod
                self.add("geometry_bake", obj, folder, INPUT, _set(holder, "bake_target", "PACKED", "packed"),
                         detail="modifier %r bake %d" % (mod.name, bake.bake_id))

    def _point_cache(self, owner, where, cache):
        for c in getattr(cache, "point_caches", None) or (cache,):
            if c.use_external and c.filepath:
                self.add("point_cache", owner, c.filepath, INPUT, _set(c, "use_external", False, "disabled"),
                         detail=where + " external cache")
            elif c.use_disk_cache:
                lib = owner.library if c.use_library_path else None
                stem = os.path.splitext(os.path.basename(lib.filepath))[0] if lib else self.blend_name
                self.add("point_cache", owner, "//blendcache_%s/" % stem, OUTPUT, _set(c, "use_disk_cache", False, "disabled"),
                         detail=where + " disk cache")

    # -- scenes -----------------------------------------------------------------------------

    def _scene(self, sc):
        r = sc.render
        self.add("render_output", sc, r.filepath or "//", OUTPUT, _render_reset(sc))
        bake = r.bake
        if getattr(bake, "save_mode", "INTERNAL") == "EXTERNAL" and bake.filepath:
            self.add("bake_output", sc, bake.filepath, OUTPUT, _set(bake, "save_mode", "INTERNAL", "reset"))
        rbw = sc.rigidbody_world
        if rbw is not None and rbw.point_cache is not None:
            self._point_cache(sc, "rigid body world", rbw.point_cache)
        editor = sc.sequence_editor
        if editor is not None:
            for strip in _strips_all(editor):
                for path in _strip_paths(strip):
                    self.add("sequencer_strip", sc, path, INPUT, _strip_remove(editor, strip), detail="strip %r" % strip.name)

    # -- everything Blender's path walker knows beyond the above -------------------------------

    def _others(self):
        known = {}
        for ref in self.refs:
            if ref.owner is not None:
                known.setdefault(ref.owner.session_uid, set()).update(_forms(ref.path, ref.absolute))
        try:
            mapping = self.data.file_path_map(include_libraries=True)
        except (AttributeError, TypeError, RuntimeError):
            return
        for owner, found in mapping.items():
            if owner.is_embedded_data:
                continue  # an embedded tree's paths are its owner's, listed above
            if not self._wanted(owner):
                continue
            mine = known.get(owner.session_uid, set())
            for path in sorted(found):
                if not path or path == "<builtin>" or "blendcache_" in path:
                    continue  # point caches are listed above, by their own rule
                joined = _joined(path, self._base_of(owner))
                forms = _forms(path, os.path.realpath(joined) if joined else None)
                if mine & forms:
                    continue
                self.add("other", owner, path, INPUT, None)


def _forms(path, absolute):
    forms = {path, os.path.normpath(path.replace("\\", "/"))} if path else set()
    if absolute:
        forms.add(absolute)
    return forms


def _join(*parts):
    parts = [p for p in parts if p]
    return ", ".join(parts) if parts else None


# -- how each reference is detached -------------------------------------------------------

def _clear(holder, attr, free=False):
    def run(output_dir):
        setattr(holder, attr, "")
        if free and hasattr(holder, "buffers_free"):
            holder.buffers_free()
        return "cleared"
    run.stored = (holder, attr)
    return run


def _set(holder, attr, value, action):
    def run(output_dir):
        setattr(holder, attr, value)
        return action
    return run


def _remove(collection, item, action):
    def run(output_dir):
        collection.remove(item)
        return action
    return run


def _builtin_font(data, font):
    def run(output_dir):
        builtin = next((f for f in data.fonts if f.filepath == "<builtin>"), None) or data.fonts.load("<builtin>")
        font.user_remap(builtin)
        data.fonts.remove(font)
        return "replaced_by_builtin"
    return run


def _render_reset(sc):
    def run(output_dir):
        sc.render.filepath = os.path.realpath(output_dir) + os.sep
        return "reset"
    return run


def _fluid_reset(obj, mod):
    def run(output_dir):
        safe = "".join(c if c.isalnum() else "_" for c in obj.name)
        mod.domain_settings.cache_directory = os.path.join(os.path.realpath(output_dir), "fluid_cache_%s" % safe)
        return "reset"
    return run


def _strips_all(editor):
    return getattr(editor, "strips_all", None) or getattr(editor, "sequences_all", ())


def _strip_paths(strip):
    if strip.type == "IMAGE":
        return [strip.directory.rstrip("/\\") + "/" + e.filename for e in strip.elements] or [strip.directory]
    if strip.type == "MOVIE" and strip.filepath:
        return [strip.filepath]
    return []


def _strip_remove(editor, strip):
    def run(output_dir):
        holder = _strip_parent(editor, strip)
        holder.remove(strip)
        return "removed_strip"
    return run


def _strip_parent(editor, strip):
    top = getattr(editor, "strips", None)
    if top is None:
        top = editor.sequences
    if any(s == strip for s in top):
        return top
    for meta in _strips_all(editor):
        inner = getattr(meta, "strips", None) if meta.type == "META" else None
        if inner is not None and any(s == strip for s in inner):
            return inner
    return top


def _point_caches(obj):
    """(modifier or particle system name, point cache) of an object."""
    for mod in obj.modifiers:
        cache = getattr(mod, "point_cache", None)
        if cache is not None:
            yield "modifier %r" % mod.name, cache
        if mod.type == "DYNAMIC_PAINT" and mod.canvas_settings is not None:
            for surface in mod.canvas_settings.canvas_surfaces:
                yield "modifier %r surface %r" % (mod.name, surface.name), surface.point_cache
    for system in obj.particle_systems:
        yield "particle system %r" % system.name, system.point_cache
