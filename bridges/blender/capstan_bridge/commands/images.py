"""Image inputs: image files from the read roots (`paths.readable`, see
bridges/blender/docs/inputs.md) as datablocks, and Image Texture nodes driving a
material's Principled BSDF inputs. Data API only."""

import bpy

from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .shading import SAFE_NAME, get_material, output_node, principled, socket

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".exr", ".hdr", ".tif", ".tiff", ".bmp", ".tga", ".webp")


def input_file(ctx, path, extensions):
    """An input path checked against the read roots, as a CommandError when refused."""
    return paths.checked_input(ctx.output_dir, path, extensions)



# -- images ---------------------------------------------------------------------------

def image_from(ctx, real):
    """The image datablock of a checked input file: the one already loaded from it, or
    a new one. Returns (image, created)."""
    existing = next((im for im in bpy.data.images if im.filepath and bpy.path.abspath(im.filepath) == real), None)
    if existing is not None:
        return ctx.delta.touch_datablock("images", existing), False
    try:
        image = bpy.data.images.load(real, check_existing=False)
        image.size[:]  # an unreadable file fails here, not at render time
    except RuntimeError as e:
        raise CommandError("unsupported", "Blender cannot read %r: %s" % (real, e))
    if not image.has_data and image.size[0] == 0:
        bpy.data.images.remove(image)
        raise CommandError("unsupported", "Blender cannot decode %r as an image" % real)
    ctx.delta.created_datablock("images", image)
    return image, True


@command(
    effect="mutate",
    summary="Load an image file from a read root as an image datablock (reused when already loaded) and set its colour space.",
    params=s.obj({
        "path": s.string(1, paths.MAX_INPUT_PATH, description="Absolute path under a read root, or a bare file name in the session output directory"),
        "color_space": s.enum(("sRGB", "Non-Color")),
    }, required=("path",)),
    result=s.obj({
        "image": s.string(), "path": s.string(), "size": s.array(s.integer(0), 2, 2), "color_space": s.string(), "created": s.boolean(),
    }, required=("image", "path", "size", "color_space", "created")),
    errors=("path_refused", "not_found", "unsupported"),
)
def load_image(ctx, params):
    real = input_file(ctx, params["path"], IMAGE_EXTENSIONS)
    image, created = image_from(ctx, real)
    if "color_space" in params:
        image.colorspace_settings.name = params["color_space"]
    return {"image": image.name, "path": real, "size": list(image.size), "color_space": image.colorspace_settings.name, "created": created}


BSDF_INPUTS = ("Base Color", "Roughness", "Metallic", "Normal", "Alpha", "Emission Color", "Displacement")


@command(
    effect="mutate",
    summary="Drive a Principled BSDF input (or the displacement output) of a material from an image datablock through an Image Texture node.",
    params=s.obj({
        "material": s.ref("datablock_name"),
        "image": s.ref("datablock_name"),
        "input": s.enum(BSDF_INPUTS),
        "uv_map": SAFE_NAME,
        "projection": s.enum(("FLAT", "BOX")),
    }, required=("material", "image", "input")),
    result=s.obj({
        "material": s.string(), "image": s.string(), "input": s.string(), "node": s.string(), "via": s.nullable(s.string()),
    }, required=("material", "image", "input", "node", "via")),
    errors=("not_found", "invalid_target"),
)
def bind_image_texture(ctx, params):
    mat = get_material(params["material"])
    image = bpy.data.images.get(params["image"])
    if image is None:
        raise not_found("image", params["image"])
    bsdf = principled(mat)
    if bsdf is None:
        raise invalid_target("material %r has no Principled BSDF to drive" % mat.name)
    tree = mat.node_tree
    target = params["input"]
    out = output_node(tree)
    if target == "Displacement" and out is None:
        raise invalid_target("material %r has no Material Output for displacement" % mat.name)
    ctx.delta.touch_datablock("materials", mat)
    tag = "capstan_tex_%s" % target.replace(" ", "_").lower()
    for node in [n for n in tree.nodes if n.name.startswith(tag)]:
        tree.nodes.remove(node)
    tex = tree.nodes.new("ShaderNodeTexImage")
    tex.name = tex.label = tag
    tex.image = image
    tex.projection = params.get("projection", "FLAT")
    tex.location = (bsdf.location.x - 500, bsdf.location.y - 120 * BSDF_INPUTS.index(target))
    if "uv_map" in params:
        uv = tree.nodes.new("ShaderNodeUVMap")
        uv.name = tag + "_uv"
        uv.uv_map = params["uv_map"]
        uv.location = (tex.location.x - 250, tex.location.y)
        tree.links.new(uv.outputs["UV"], tex.inputs["Vector"])
    via = None
    if target == "Normal":
        nm = tree.nodes.new("ShaderNodeNormalMap")
        nm.name, via = tag + "_normal_map", "ShaderNodeNormalMap"
        nm.location = (bsdf.location.x - 220, tex.location.y)
        tree.links.new(tex.outputs["Color"], nm.inputs["Color"])
        tree.links.new(nm.outputs["Normal"], bsdf.inputs["Normal"])
    elif target == "Displacement":
        disp = tree.nodes.new("ShaderNodeDisplacement")
        disp.name, via = tag + "_displacement", "ShaderNodeDisplacement"
        disp.location = (out.location.x - 200, out.location.y - 250)
        tree.links.new(tex.outputs["Color"], disp.inputs["Height"])
        tree.links.new(disp.outputs["Displacement"], out.inputs["Displacement"])
    else:
        tree.links.new(tex.outputs["Color"], socket(bsdf.inputs, target, "Emission"))
    return {"material": mat.name, "image": image.name, "input": target, "node": tex.name, "via": via}
