"""External file paths made relative or absolute, and images packed into the .blend
(Blender's File > External Data), over the one list of the scene's file references
(`file_refs.file_references`): no second scanner.

Paths are rewritten with the data API, one stored property per reference, not with
`bpy.ops.file.make_paths_relative`: relative means relative to the saved .blend
(`//`), so making paths relative needs a saved file (`unsaved_file` otherwise; save it
with `save_blend` and `copy: false`).

What may be rewritten, and why:

- only inputs (images, sounds, fonts, movie clips, libraries, cache files, volumes,
  texts, IES and Geometry Nodes import nodes, mesh and ocean caches). Outputs (render
  output, File Output nodes, disk caches) are left as they are: where Blender writes
  stays inside the output folder, which the check before a render judges;
- only references whose target lies in a read root: rewriting a path makes Blender
  reload the file from it (a sound, a font), so a path outside the roots is not
  touched (`outside_read_roots`), exactly as the check before a render would refuse
  it. Images are rewritten through `filepath_raw`, which reloads nothing;
- only local datablocks: linked data is read-only (`linked`);
- the new path must resolve to the same file as the old one, or the old path is put
  back (`would_move`): a rewrite changes how a path is written, never what it means.

Packing reads each image file into the .blend; the file must be in a read root and
exist (`missing` otherwise). Image sequences and movies cannot be packed. Nothing is
written to disk: the .blend holds the data once it is saved.
"""

import os

import bpy

from .. import file_refs
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError

REWRITABLE = ("image", "sound", "font", "movie_clip", "library", "cache_file", "volume", "text", "ies",
              "geometry_import", "node_file_path", "mesh_cache", "ocean_cache")
ACTIONS = ("make_relative", "make_absolute")
REASONS = {
    "linked": "the datablock is linked from a library, so its path is read-only",
    "packed": "its data is packed in the .blend; rewriting the path would reload it from disk",
    "not_stored": "Blender computes or keeps this path where it cannot be rewritten in place",
    "outside_read_roots": "the file is outside the read roots, so capstan does not touch it",
    "unresolvable": "the path cannot be resolved (a // path of an unsaved file)",
    "would_move": "the rewritten path would point to another file",
    "other_drive": "the file is on another drive than the .blend, so no relative path reaches it",
    "missing": "no file exists at the path",
    "not_packable": "image sequences and movies cannot be packed",
    "already_packed": "the image is already packed",
}
_TRACKED = {"IMAGE": "images", "MATERIAL": "materials", "WORLD": "worlds", "NODETREE": "node_groups"}

WHERE = {
    "kind": s.enum(file_refs.KINDS), "datablock_type": s.string(), "datablock": s.string(),
    "node": s.nullable(s.string()), "detail": s.nullable(s.string()),
}
SKIPPED = s.obj(dict(WHERE, path=s.string(), reason=s.enum(tuple(REASONS), description="; ".join(
    "%s: %s" % kv for kv in REASONS.items()))), required=tuple(WHERE) + ("path", "reason"))
REWRITTEN = s.obj(dict(WHERE, before=s.string(), after=s.string()), required=tuple(WHERE) + ("before", "after"))
PACKED = s.obj({"image": s.string(), "path": s.string(), "bytes": s.integer(0)}, required=("image", "path", "bytes"))


def _where(ref):
    return {"kind": ref.kind, "datablock_type": ref.owner.id_type, "datablock": ref.owner.name,
            "node": ref.node, "detail": ref.detail}


def _skip(ref, reason):
    return dict(_where(ref), path=ref.path, reason=reason)


def _touch(ctx, owner):
    """Tell the delta about the datablock whose path changes."""
    if owner.id_type == "OBJECT":
        ctx.delta.touch(owner)
    elif owner.id_type in _TRACKED:
        ctx.delta.touch_datablock(_TRACKED[owner.id_type], owner)


def _why_not(ref, output_dir):
    """None when `ref` may be rewritten or packed, else a key of REASONS."""
    if ref.owner.library is not None:
        return "linked"
    if ref.unresolvable or ref.absolute is None:
        return "unresolvable"
    if file_refs.problem_of(ref, output_dir) is not None:
        return "outside_read_roots"
    return None


def _rewritten(ref, action, base):
    """The path `ref` gets, or None when it already has that form."""
    joined = os.path.normpath(file_refs.joined(ref.path, base))
    stored = ref.path.replace("\\", "/")
    if action == "make_absolute":
        return None if not stored.startswith("//") and os.path.isabs(stored) else joined
    if stored.startswith("//"):
        return None
    return "//" + os.path.relpath(joined, base).replace(os.sep, "/")


def _write(ref, value):
    holder, attr = ref.stored
    if ref.kind == "image":
        attr = "filepath_raw"  # no reload
    setattr(holder, attr, value)


@command(
    effect="mutate",
    summary="Make the scene's external file paths relative to the saved .blend (//) or absolute, in place; inputs in the read roots only.",
    params=s.obj({
        "action": s.enum(ACTIONS),
        "kinds": s.array(s.enum(REWRITABLE), min_items=1, max_items=len(REWRITABLE),
                         description="Only references of these kinds (default all)"),
    }, required=("action",)),
    result=s.obj({
        "action": s.enum(ACTIONS),
        "blend_file": s.string(description="The saved .blend relative paths are relative to ('' when unsaved)"),
        "rewritten": s.array(REWRITTEN),
        "unchanged": s.integer(0, description="References that already had the asked form"),
        "skipped": s.array(SKIPPED),
    }, required=("action", "blend_file", "rewritten", "unchanged", "skipped")),
    errors=("unsaved_file",),
)
def rewrite_file_paths(ctx, params):
    action, kinds = params["action"], set(params.get("kinds", REWRITABLE))
    blend = bpy.data.filepath
    if action == "make_relative" and not blend:
        raise CommandError("unsaved_file", "the scene is not saved as a .blend, so there is no folder for relative (//) "
                                           "paths; save it with save_blend and copy: false first")
    base = os.path.dirname(blend) if blend else None
    rewritten, skipped, unchanged = [], [], 0
    for ref in file_refs.file_references():
        if ref.kind not in kinds or ref.direction != file_refs.INPUT or not ref.path or ref.computed:
            continue
        reason = _why_not(ref, ctx.output_dir)
        if reason is None and ref.stored is None:
            reason = "not_stored"
        if reason is None and ref.packed and ref.kind != "image":
            reason = "packed"
        if reason is not None:
            skipped.append(_skip(ref, reason))
            continue
        try:
            new = _rewritten(ref, action, base)
        except ValueError:  # os.path.relpath across Windows drives
            skipped.append(_skip(ref, "other_drive"))
            continue
        if new is None or new == ref.path:
            unchanged += 1
            continue
        _touch(ctx, ref.owner)
        before = ref.path
        _write(ref, new)
        if os.path.realpath(file_refs.joined(new, base)) != ref.absolute:
            _write(ref, before)
            skipped.append(_skip(ref, "would_move"))
            continue
        rewritten.append(dict(_where(ref), before=before, after=new))
    return {"action": action, "blend_file": blend, "rewritten": rewritten, "unchanged": unchanged, "skipped": skipped}


@command(
    effect="mutate",
    summary="Pack image files into the .blend (File > External Data > Pack Resources for images); files in the read roots only.",
    params=s.obj({
        "images": s.array(s.string(1, 255), min_items=1, max_items=1000, description="Only these images (default all)"),
    }),
    result=s.obj({
        "packed": s.array(PACKED),
        "skipped": s.array(SKIPPED),
    }, required=("packed", "skipped")),
    errors=("not_found",),
    timeout_s=120,
)
def pack_images(ctx, params):
    wanted = params.get("images")
    if wanted is not None:
        missing = [n for n in wanted if n not in bpy.data.images]
        if missing:
            raise CommandError("not_found", "no images named %s" % ", ".join(map(repr, missing[:5])))
    packed, skipped = [], []
    for ref in file_refs.file_references():
        image = ref.owner
        if ref.kind != "image" or (wanted is not None and image.name not in wanted):
            continue
        reason = "already_packed" if ref.packed else _why_not(ref, ctx.output_dir)
        if reason is None and image.source not in ("FILE", "TILED"):
            reason = "not_packable"
        if reason is None and not os.path.isfile(ref.absolute) and image.source == "FILE":
            reason = "missing"
        if reason is not None:
            skipped.append(_skip(ref, reason))
            continue
        ctx.delta.touch_datablock("images", image)
        image.pack()
        packed.append({"image": image.name, "path": image.filepath,
                       "bytes": sum(p.packed_file.size for p in image.packed_files if p.packed_file is not None)})
    return {"packed": packed, "skipped": skipped}
