"""Texture baking with Cycles on the CPU, into a PNG (or a float EXR) of the session
output directory."""

import os

import bpy

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import OBJECT, get_object, scene
from .shading import tree_of

BAKE_TYPES = {
    "diffuse": "DIFFUSE", "normal": "NORMAL", "roughness": "ROUGHNESS", "ao": "AO", "emit": "EMIT",
    "combined": "COMBINED", "shadow": "SHADOW", "glossy": "GLOSSY",
}
NODE_NAME = "capstan_bake"


def _bake_node(mat, image):
    """Point the material's bake node at `image` (the node bake writes into: the
    active one); returns how to undo it."""
    tree = tree_of(mat)
    node = tree.nodes.get(NODE_NAME)
    undo = (mat, node is None, node.image if node is not None else None, tree.nodes.active)
    if node is None:
        node = tree.nodes.new("ShaderNodeTexImage")
        node.name = node.label = NODE_NAME
        node.location = (-600, 400)
    node.image = image
    tree.nodes.active = node
    return undo


def _undo_bake_nodes(undos):
    for mat, created, old_image, old_active in undos:
        nodes = mat.node_tree.nodes
        node = nodes.get(NODE_NAME)
        if created:
            nodes.remove(node)
        else:
            node.image = old_image
        nodes.active = old_active


@command(
    effect="mutate",
    summary="Bake a pass (diffuse, normal, roughness, ao, emit, combined, shadow, glossy) of a mesh into a new image saved as a PNG or EXR in the output directory.",
    params=s.obj({
        "object": OBJECT,
        "bake_type": s.enum(tuple(BAKE_TYPES)),
        "width": s.integer(16, 8192),
        "height": s.integer(16, 8192),
        "margin": s.integer(0, 64),
        "samples": s.integer(1, 4096),
        "source": s.array(OBJECT, 1, 64, description="Selected-to-active: bake these objects onto `object`"),
        "cage_extrusion": s.number(0, 10),
        "filename": s.string(5, 128, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*\.(png|exr)$",
                             description="A plain file name: .png (8-bit) or .exr (32-bit float)"),
    }, required=("object", "bake_type", "width", "height", "filename")),
    result=s.obj({
        "object": s.string(), "image": s.string(), "path": s.string(), "width": s.integer(1), "height": s.integer(1),
        "bake_type": s.string(), "materials": s.array(s.string()), "bytes": s.integer(1),
    }, required=("object", "image", "path", "width", "height", "bake_type", "materials", "bytes")),
    errors=("not_found", "invalid_target", "invalid_params", "path_refused", refs_check.CODE),
    timeout_s=600,
)
def bake_texture(ctx, params):
    obj = get_object(params["object"])
    if obj.type != "MESH":
        raise invalid_target("only meshes can be baked; %r is a %s" % (obj.name, obj.type))
    if not obj.data.uv_layers:
        raise invalid_target("%r has no UV map; unwrap it first (uv.unwrap)" % obj.name)
    mats = [sl.material for sl in obj.material_slots if sl.material is not None]
    if not mats:
        raise invalid_target("%r has no material to bake into; give it one first" % obj.name)
    sources = [get_object(n) for n in params.get("source", ())]
    if any(o == obj for o in sources):
        raise CommandError("invalid_params", "the bake target cannot be its own source")
    if any(o.type != "MESH" for o in sources):
        raise invalid_target("bake sources must be meshes")
    try:
        path = paths.confined(ctx.output_dir, params["filename"])
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))

    refs_check.check_scene(ctx, "the bake")  # a bake evaluates the scene and may save where the scene's bake settings say
    name = os.path.splitext(params["filename"])[0]
    exr = params["filename"].endswith(".exr")
    image = bpy.data.images.new(name, params["width"], params["height"], alpha=False, float_buffer=exr)
    ctx.delta.created_datablock("images", image)
    if params["bake_type"] == "normal":
        image.colorspace_settings.name = "Non-Color"
    undos = []
    for mat in dict.fromkeys(mats):
        ctx.delta.touch_datablock("materials", mat)
        undos.append(_bake_node(mat, image))

    sc = scene()
    r, cyc, bake = sc.render, sc.cycles, sc.render.bake
    view_layer = bpy.context.view_layer
    saved = (r.engine, cyc.device, cyc.samples, bake.margin, bake.use_selected_to_active, bake.cage_extrusion,
             view_layer.objects.active, [o for o in view_layer.objects if o.select_get()])
    try:
        r.engine = "CYCLES"
        cyc.device = "CPU"
        cyc.samples = params.get("samples", 16)
        selected = [obj] + sources
        for o in saved[7]:
            o.select_set(False)
        for o in selected:
            o.select_set(True)
        view_layer.objects.active = obj
        kwargs = {
            "type": BAKE_TYPES[params["bake_type"]], "margin": params.get("margin", 16),
            "use_selected_to_active": bool(sources), "cage_extrusion": params.get("cage_extrusion", 0.0),
            "use_clear": True,
        }
        if params["bake_type"] == "diffuse":
            kwargs["pass_filter"] = {"COLOR"}
        # Baking has no data-API entry point: the operator, with the context it reads.
        with bpy.context.temp_override(object=obj, active_object=obj, selected_objects=selected,
                                       selected_editable_objects=selected):
            bpy.ops.object.bake(**kwargs)
    except RuntimeError as e:
        # Leave nothing behind: the bake nodes as they were, no new image.
        _undo_bake_nodes(undos)
        ctx.delta.removing_datablock("images", image)
        bpy.data.images.remove(image)
        raise CommandError("invalid_params", "the bake failed: %s" % e)
    finally:
        r.engine, cyc.device, cyc.samples = saved[0], saved[1], saved[2]
        bake.margin, bake.use_selected_to_active, bake.cage_extrusion = saved[3], saved[4], saved[5]
        for o in view_layer.objects:
            o.select_set(o in saved[7])
        view_layer.objects.active = saved[6]
    image.filepath_raw = path
    image.file_format = "OPEN_EXR" if exr else "PNG"
    image.save()
    if not os.path.isfile(path):
        raise CommandError("blender_error", "the bake finished but wrote no file")
    return {
        "object": obj.name, "image": image.name, "path": path, "width": image.size[0], "height": image.size[1],
        "bake_type": params["bake_type"], "materials": sorted({m.name for m in mats}), "bytes": os.path.getsize(path),
    }
