"""Files in and out: import and export of interchange formats, .blend save/open/new.

Inputs come only from the read roots (`paths.readable`, bridges/blender/docs/inputs.md);
outputs are bare file names in the session output folder (`paths.confined`).

Importers, exporters and file loading have no data-API equivalent, so these handlers
call Blender's operators (`bpy.ops.wm.*_import/_export`, `import_scene.*`, ...): each is
the only way Blender offers to read or write these formats. Which of them the running
Blender has (bundled add-ons, build options such as Alembic and USD) is probed once per
bridge process (`available_formats`); a missing one answers `unsupported`.
Files are opened with `use_scripts=False`: a .blend's Python never runs. What a file
brings is checked for file references outside the read roots or the output folder
before anything evaluates it (`file_refs_check`): opens and imports are refused, or
load with those references detached when `detach_outside_references` asks for it.
"""

import os

import bmesh
import bpy

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .images import input_file

IMPORT_FORMATS = ("fbx", "obj", "glb", "gltf", "stl", "ply", "svg", "abc", "usd", "usda", "usdc", "usdz")
EXPORT_FORMATS = ("glb", "gltf", "fbx", "obj", "stl", "ply", "abc", "usd")
USD = ("usd", "usda", "usdc", "usdz")
MAX_EXPORT_OBJECTS = 1000

# format -> (operator path, build option or None); glTF/FBX/SVG are bundled add-ons.
_IMPORTERS = {"fbx": ("import_scene.fbx", None), "obj": ("wm.obj_import", "io_wavefront_obj"),
              "glb": ("import_scene.gltf", None), "gltf": ("import_scene.gltf", None),
              "stl": ("wm.stl_import", "io_stl"), "ply": ("wm.ply_import", "io_ply"),
              "svg": ("import_curve.svg", None), "abc": ("wm.alembic_import", "alembic"),
              **{f: ("wm.usd_import", "usd") for f in USD}}
_EXPORTERS = {"glb": ("export_scene.gltf", None), "gltf": ("export_scene.gltf", None),
              "fbx": ("export_scene.fbx", None), "obj": ("wm.obj_export", "io_wavefront_obj"),
              "stl": ("wm.stl_export", "io_stl"), "ply": ("wm.ply_export", "io_ply"),
              "abc": ("wm.alembic_export", "alembic"), "usd": ("wm.usd_export", "usd")}

_probed = None


def _operator(path):
    group, name = path.split(".")
    op = getattr(getattr(bpy.ops, group), name)
    try:
        op.get_rna_type()  # raises KeyError when the operator is not registered
    except (KeyError, AttributeError):
        return None
    return op


def available_formats():
    """{"import": {fmt: bool}, "export": {fmt: bool}} for the running Blender, probed once."""
    global _probed
    if _probed is None:
        def ok(table):
            out = {}
            for fmt, (path, option) in table.items():
                built = option is None or bool(getattr(bpy.app.build_options, option, True))
                out[fmt] = built and _operator(path) is not None
            return out
        _probed = {"import": ok(_IMPORTERS), "export": ok(_EXPORTERS)}
    return _probed


def _need(direction, fmt):
    if not available_formats()[direction].get(fmt):
        raise CommandError("unsupported", "this Blender cannot %s %s files (the importer/exporter is not built in or its add-on is off)" % (direction, fmt))
    path = (_IMPORTERS if direction == "import" else _EXPORTERS)[fmt][0]
    return _operator(path)


class _KeepSelection:
    """Importers and exporters select things; put selection and the active object back."""

    def __enter__(self):
        layer = bpy.context.view_layer
        self.active = layer.objects.active
        self.selected = {o.name for o in layer.objects if o.select_get()}
        return self

    def select_only(self, names):
        for o in bpy.context.view_layer.objects:
            o.select_set(o.name in names)

    def __exit__(self, *exc):
        layer = bpy.context.view_layer
        for o in layer.objects:
            want = o.name in self.selected
            if o.select_get() != want:
                o.select_set(want)
        if layer.objects.active is not self.active:
            layer.objects.active = self.active if self.active is None or self.active.name in layer.objects else None
        return False


@command(
    effect="mutate",
    summary="Import a local file (fbx, obj, glb, gltf, stl, ply, svg, abc, usd*) from a read root; answers the new objects.",
    params=s.obj({
        "path": s.string(1, paths.MAX_INPUT_PATH, description="Absolute path under a read root, or a bare file name in the session output directory"),
        "format": s.enum(IMPORT_FORMATS, description="Inferred from the extension when absent"),
        "scale": s.number(exclusive_minimum=0, maximum=1000, description="Uniform scale applied to the imported top-level objects"),
        "detach_outside_references": refs_check.DETACH_PARAM,
    }, required=("path",)),
    result=s.obj({"path": s.string(), "format": s.string(), "new_objects": s.array(s.string()), "scale": s.number(),
                  "detached": s.array(refs_check.DETACHED)},
                 required=("path", "format", "new_objects", "scale")),
    errors=("path_refused", "not_found", "unsupported", "invalid_params", refs_check.CODE),
    full_delta=True,
    timeout_s=120,
)
def import_file(ctx, params):
    real = input_file(ctx, params["path"], tuple("." + f for f in IMPORT_FORMATS))
    ext = os.path.splitext(real)[1].lower().lstrip(".")
    fmt = params.get("format", ext)
    if not (ext == fmt or (fmt in USD and ext in USD) or {fmt, ext} <= {"glb", "gltf"}):
        raise CommandError("invalid_params", "%r is not a .%s file" % (os.path.basename(real), fmt))
    op = _need("import", fmt)
    before = {o.session_uid for o in bpy.data.objects}
    every_before = refs_check.id_uids()
    with _KeepSelection():
        kwargs = {"filepath": real}
        if fmt == "abc":
            kwargs["as_background_job"] = False
        result = op(**kwargs)
        if "FINISHED" not in result:
            raise CommandError("unsupported", "Blender could not import %r as %s" % (os.path.basename(real), fmt))
        new = [o for o in bpy.data.objects if o.session_uid not in before]
        if fmt in ("glb", "gltf"):
            _weld(new)
        scale = float(params.get("scale", 1.0))
        if scale != 1.0:
            for o in new:
                if o.parent is None or o.parent.session_uid in before:
                    o.location = [c * scale for c in o.location]
                    o.scale = [c * scale for c in o.scale]
    # Before the view layer evaluates what came in: its file references.
    detached = refs_check.check_new(ctx, every_before, params.get("detach_outside_references", False), repr(os.path.basename(real)))
    if scale != 1.0:
        bpy.context.view_layer.update()
    new = [o for o in bpy.data.objects if o.session_uid not in before]
    out = {"path": real, "format": fmt, "new_objects": sorted(o.name for o in new), "scale": scale}
    if "detach_outside_references" in params:
        out["detached"] = detached
    return out


def _weld(objects):
    """glTF stores a vertex per distinct normal/UV corner; weld coincident vertices back
    (bmesh, distance 1e-6 m) so a mesh returns with the topology it was exported with.
    Face smoothness and corner attributes (UVs, normals) stay on the faces."""
    seen = set()
    for o in objects:
        mesh = o.data if o.type == "MESH" else None
        if mesh is None or mesh.session_uid in seen:
            continue
        seen.add(mesh.session_uid)
        bm = bmesh.new()
        bm.from_mesh(mesh)
        bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
        bm.to_mesh(mesh)
        bm.free()


def _export_kwargs(fmt, selected, p):
    mods, mats, anim = p.get("apply_modifiers", True), p.get("export_materials", True), p.get("export_animation", False)
    if fmt in ("glb", "gltf"):
        return {"export_format": "GLB" if fmt == "glb" else "GLTF_SEPARATE", "use_selection": selected, "export_apply": mods,
                "export_materials": "EXPORT" if mats else "NONE", "export_animations": anim}
    if fmt == "fbx":
        return {"use_selection": selected, "use_mesh_modifiers": mods, "bake_anim": anim, "path_mode": "AUTO"}
    if fmt == "obj":
        return {"export_selected_objects": selected, "apply_modifiers": mods, "export_materials": mats, "export_animation": False}
    if fmt in ("stl", "ply"):
        return {"export_selected_objects": selected, "apply_modifiers": mods}
    if fmt == "abc":
        sc = bpy.context.scene
        frames = (sc.frame_start, sc.frame_end) if anim else (sc.frame_current, sc.frame_current)
        return {"selected": selected, "start": frames[0], "end": frames[1], "as_background_job": False}
    return {"selected_objects_only": selected, "export_animation": anim, "export_materials": mats,
            "evaluation_mode": "RENDER" if mods else "VIEWPORT"}


@command(
    effect="write",
    summary="Export the scene or some objects to a file in the session output folder (glb, gltf (+ .bin beside it), fbx, obj, stl, ply, abc, usd).",
    params=s.obj({
        "filename": s.string(1, 128, pattern=r"^[A-Za-z0-9_. -]+$", description="A bare file name; its extension must match the format"),
        "format": s.enum(EXPORT_FORMATS),
        "objects": s.array(s.ref("object_name"), 1, MAX_EXPORT_OBJECTS),
        "selected_only": s.boolean(),
        "apply_modifiers": s.boolean(),
        "export_materials": s.boolean(),
        "export_animation": s.boolean(),
    }, required=("filename", "format")),
    result=s.obj({"path": s.string(), "filename": s.string(), "format": s.string(), "bytes": s.integer(0), "objects": s.array(s.string())},
                 required=("path", "filename", "format", "bytes", "objects")),
    errors=("path_refused", "not_found", "unsupported", "invalid_params", refs_check.CODE),
    timeout_s=120,
)
def export_file(ctx, params):
    fmt, name = params["format"], params["filename"]
    try:
        path = paths.confined(ctx.output_dir, name)
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    if not name.lower().endswith("." + fmt):
        raise CommandError("invalid_params", "%r must end in .%s for format %s" % (name, fmt, fmt))
    if params.get("export_animation") and fmt in ("obj", "stl", "ply"):
        raise CommandError("unsupported", "%s files hold no animation" % fmt)
    if "objects" in params and params.get("selected_only"):
        raise CommandError("invalid_params", "give objects or selected_only, not both")
    op = _need("export", fmt)
    refs_check.check_scene(ctx, "the export")  # exporters evaluate modifiers (import nodes among them)
    layer = bpy.context.view_layer
    with _KeepSelection() as keep:
        if "objects" in params:
            missing = [n for n in params["objects"] if n not in layer.objects]
            if missing:
                raise CommandError("not_found", "no objects named %s in the view layer" % ", ".join(map(repr, missing[:5])))
            keep.select_only(set(params["objects"]))
        selected = "objects" in params or bool(params.get("selected_only"))
        chosen = sorted(o.name for o in layer.objects if (o.select_get() or not selected))
        if not chosen:
            raise CommandError("invalid_params", "nothing to export: no object is selected")
        result = op(filepath=path, **_export_kwargs(fmt, selected, params))
    if "FINISHED" not in result or not os.path.isfile(path):
        raise CommandError("unsupported", "Blender could not export %s" % fmt)
    return {"path": path, "filename": name, "format": fmt, "bytes": os.path.getsize(path), "objects": chosen}


@command(
    effect="write",
    summary="Save the open scene as a .blend in the session output folder (a copy by default: the session keeps its file).",
    params=s.obj({
        "filename": s.string(1, 128, pattern=r"^[A-Za-z0-9_. -]+\.blend$", description="A bare file name ending in .blend"),
        "compress": s.boolean(),
        "copy": s.boolean(description="true (default): write a copy; false: the session's file becomes this one"),
    }, required=("filename",)),
    result=s.obj({"path": s.string(), "filename": s.string(), "bytes": s.integer(0), "copy": s.boolean(), "compress": s.boolean(),
                  "objects": s.integer(0, description="How many objects the file holds")},
                 required=("path", "filename", "bytes", "copy", "compress", "objects")),
    errors=("path_refused",),
    timeout_s=120,
)
def save_blend(ctx, params):
    try:
        path = paths.confined(ctx.output_dir, params["filename"])
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    copy, compress = params.get("copy", True), params.get("compress", False)
    # relative_remap=False: saving must not rewrite the scene's image paths.
    bpy.ops.wm.save_as_mainfile(filepath=path, copy=copy, compress=compress, relative_remap=False)
    return {"path": path, "filename": params["filename"], "bytes": os.path.getsize(path), "copy": copy, "compress": compress,
            "objects": len(bpy.data.objects)}


def _scene_objects():
    return sorted(o.name for o in bpy.data.objects)


@command(
    effect="destroy",
    summary="Replace the session scene with a .blend from a read root (its scripts never run).",
    params=s.obj({"path": s.string(1, paths.MAX_INPUT_PATH, description="Absolute path under a read root, or a bare file name in the session output directory"),
                  "detach_outside_references": refs_check.DETACH_PARAM},
                 required=("path",)),
    result=s.obj({"path": s.string(), "objects": s.array(s.string()), "detached": s.array(refs_check.DETACHED)},
                 required=("path", "objects")),
    errors=("path_refused", "not_found", "unsupported", refs_check.CODE),
    full_delta=True,
    timeout_s=120,
)
def open_blend(ctx, params):
    real = input_file(ctx, params["path"], (".blend",))
    detach, subject = params.get("detach_outside_references", False), repr(os.path.basename(real))
    try:
        refused = [] if detach else refs_check.prescan(ctx, real)
    except (OSError, RuntimeError) as e:
        raise CommandError("unsupported", "Blender cannot read %r: %s" % (os.path.basename(real), e))
    if refused:
        raise refs_check.refusal(subject, refused, "Nothing was loaded: the session keeps its scene. Pass "
                                 "detach_outside_references: true to open it with these detached.")
    guard = refs_check.OpenGuard(ctx.output_dir, detach, subject)
    try:
        with guard:
            bpy.ops.wm.open_mainfile(filepath=real, load_ui=False, use_scripts=False)
    except RuntimeError as e:
        raise CommandError("unsupported", "Blender cannot open %r: %s" % (os.path.basename(real), e))
    ctx.session.snapshots.clear()
    if guard.refused:
        bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=True)
        raise guard.error()
    out = {"path": real, "objects": _scene_objects()}
    if detach:
        out["detached"] = guard.detached
    return out


@command(
    effect="destroy",
    summary="Replace the session scene with a new file: Blender's factory startup scene, or an empty one.",
    params=s.obj({"empty": s.boolean(description="true: no objects at all; false (default): the factory cube, camera and light")}),
    result=s.obj({"empty": s.boolean(), "objects": s.array(s.string())}, required=("empty", "objects")),
    full_delta=True,
)
def new_file(ctx, params):
    empty = params.get("empty", False)
    bpy.ops.wm.read_homefile(use_factory_startup=True, use_empty=empty)
    ctx.session.snapshots.clear()
    return {"empty": empty, "objects": _scene_objects()}


@command(
    effect="read",
    summary="Which file formats the running Blender can import and export (probed once per bridge process).",
    params=s.obj({}),
    result=s.obj({"import": s.array(s.string()), "export": s.array(s.string())}, required=("import", "export")),
)
def io_formats(ctx, params):
    probed = available_formats()
    return {d: sorted(f for f, ok in probed[d].items() if ok) for d in ("import", "export")}
