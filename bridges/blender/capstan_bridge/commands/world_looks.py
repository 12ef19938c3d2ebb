"""World looks: a local HDRI, a physical sky, a vertical two-colour gradient.

Each rebuilds the scene world's node tree (creating the world if the scene has none).
HDRI files come only from the read roots (bridges/blender/docs/inputs.md). Radians.
"""

import math

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import rounded, scene, uses_legacy_node_toggle
from .images import image_from, input_file

HDRI_EXTENSIONS = (".hdr", ".exr")
SKY_TYPES = ("NISHITA", "HOSEK_WILKIE", "PREETHAM")
# Physical-sky settings and their RNA names (dust is `aerosol_density` from 5.0).
SKY_SETTINGS = (("altitude", ("altitude",)), ("air", ("air_density",)),
                ("dust", ("aerosol_density", "dust_density")), ("ozone", ("ozone_density",)))


def _fresh_world(ctx):
    """The scene world, tracked, with an empty node tree and an output node."""
    sc = scene()
    ctx.delta.touch_settings("world")
    world = sc.world
    if world is None:
        ctx.delta.touch_settings("scene")
        world = ctx.delta.created_datablock("worlds", bpy.data.worlds.new("World"))
        sc.world = world
    else:
        ctx.delta.touch_datablock("worlds", world)
    if uses_legacy_node_toggle() and not world.use_nodes:
        world.use_nodes = True
    tree = world.node_tree
    tree.nodes.clear()
    out = tree.nodes.new("ShaderNodeOutputWorld")
    out.location = (600, 0)
    return world, tree, out


def _background(tree, strength, x=300, y=0):
    bg = tree.nodes.new("ShaderNodeBackground")
    bg.location = (x, y)
    bg.inputs["Strength"].default_value = strength
    return bg


WORLD_RESULT = s.obj({"world": s.string(), "mode": s.enum(("hdri", "sky", "gradient")), "nodes": s.array(s.string()),
                      "strength": s.number(), "image": s.nullable(s.string()), "sky_type": s.nullable(s.string())},
                     required=("world", "mode", "nodes", "strength", "image", "sky_type"))


def _answer(world, mode, strength, image=None, sky_type=None):
    return {"world": world.name, "mode": mode, "nodes": sorted(n.bl_idname for n in world.node_tree.nodes),
            "strength": round(strength, 5), "image": image, "sky_type": sky_type}


@command(
    effect="mutate",
    summary="Light the scene with a local HDRI (.hdr/.exr under a read root): strength, rotation about Z in radians, visible to the camera or not.",
    params=s.obj({
        "path": s.string(1, 1024, description="Absolute path under a read root, or a bare file name in the session output directory"),
        "strength": s.number(0, 100),
        "rotation": s.number(0, 6.2832, description="Radians about the vertical axis"),
        "background_visible": s.boolean(),
    }, required=("path",)),
    result=WORLD_RESULT,
    errors=("path_refused", "not_found", "unsupported"),
)
def set_world_hdri(ctx, params):
    real = input_file(ctx, params["path"], HDRI_EXTENSIONS)
    image, _ = image_from(ctx, real)
    world, tree, out = _fresh_world(ctx)
    links = tree.links
    coord = tree.nodes.new("ShaderNodeTexCoord")
    coord.location = (-600, 0)
    mapping = tree.nodes.new("ShaderNodeMapping")
    mapping.location = (-400, 0)
    mapping.inputs["Rotation"].default_value = (0.0, 0.0, params.get("rotation", 0.0))
    env = tree.nodes.new("ShaderNodeTexEnvironment")
    env.location = (-150, 0)
    env.image = image
    links.new(coord.outputs["Generated"], mapping.inputs["Vector"])
    links.new(mapping.outputs["Vector"], env.inputs["Vector"])
    strength = params.get("strength", 1.0)
    bg = _background(tree, strength, 150, 0)
    links.new(env.outputs["Color"], bg.inputs["Color"])
    if params.get("background_visible", True):
        links.new(bg.outputs["Background"], out.inputs["Surface"])
    else:
        # Camera rays see black; every other ray (lighting, reflections) sees the HDRI.
        path = tree.nodes.new("ShaderNodeLightPath")
        path.location = (150, 300)
        hidden = _background(tree, 0.0, 150, -200)
        hidden.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
        mix = tree.nodes.new("ShaderNodeMixShader")
        mix.location = (400, 0)
        links.new(path.outputs["Is Camera Ray"], mix.inputs["Fac"])
        links.new(bg.outputs["Background"], mix.inputs[1])
        links.new(hidden.outputs["Background"], mix.inputs[2])
        links.new(mix.outputs["Shader"], out.inputs["Surface"])
    return _answer(world, "hdri", strength, image=image.name)


def _sky_enum():
    return [i.identifier for i in bpy.types.ShaderNodeTexSky.bl_rna.properties["sky_type"].enum_items]


def _physical(items):
    """Nishita's physical model: its own name up to 4.5, (multiple) scattering from 5.0."""
    return next((k for k in ("NISHITA", "MULTIPLE_SCATTERING", "SINGLE_SCATTERING") if k in items), None)


def _set_first(struct, names, value):
    for name in names:
        if hasattr(struct, name):
            setattr(struct, name, value)
            return True
    return False


@command(
    effect="mutate",
    summary="A physical sky as the world: Nishita (physical), Hosek-Wilkie or Preetham, sun elevation and rotation in radians, altitude, air, dust, ozone.",
    params=s.obj({
        "sky_type": s.enum(SKY_TYPES),
        "sun_elevation": s.number(-0.17454, 1.5708, description="Radians above the horizon (-10..90 degrees)"),
        "sun_rotation": s.number(0, 6.2832, description="Radians about the vertical axis"),
        "altitude": s.number(0, 60000, description="Metres (physical sky)"),
        "air": s.number(0, 10), "dust": s.number(0, 10), "ozone": s.number(0, 10),
        "strength": s.number(0, 100),
    }),
    result=WORLD_RESULT,
    errors=("unsupported", "invalid_params"),
)
def set_world_sky(ctx, params):
    kind = params.get("sky_type", "NISHITA")
    items = _sky_enum()
    blender_kind = _physical(items) if kind == "NISHITA" else (kind if kind in items else None)
    if blender_kind is None:
        raise CommandError("unsupported", "this Blender's sky texture has no %s model (it has %s)" % (kind, ", ".join(items)))
    if kind != "NISHITA" and any(k in params for k in ("altitude", "air", "dust", "ozone")):
        raise CommandError("invalid_params", "altitude, air, dust and ozone are settings of the NISHITA sky")
    sky_props = bpy.types.ShaderNodeTexSky.bl_rna.properties
    for key, names in SKY_SETTINGS:
        if key in params and not any(n in sky_props for n in names):
            raise CommandError("unsupported", "this Blender's sky has no %s setting" % key)
    world, tree, out = _fresh_world(ctx)
    sky = tree.nodes.new("ShaderNodeTexSky")
    sky.location = (0, 0)
    sky.sky_type = blender_kind
    elevation = params.get("sun_elevation", math.radians(15))
    rotation = params.get("sun_rotation", 0.0)
    if kind == "NISHITA":
        sky.sun_elevation, sky.sun_rotation = elevation, rotation
        for key, names in SKY_SETTINGS:
            if key in params:
                _set_first(sky, names, params[key])
    else:
        sky.sun_direction = Vector((math.cos(elevation) * math.sin(rotation), -math.cos(elevation) * math.cos(rotation), math.sin(elevation)))
    strength = params.get("strength", 1.0)
    bg = _background(tree, strength)
    tree.links.new(sky.outputs["Color"], bg.inputs["Color"])
    tree.links.new(bg.outputs["Background"], out.inputs["Surface"])
    return _answer(world, "sky", strength, sky_type=blender_kind)


@command(
    effect="mutate",
    summary="A vertical two-colour gradient as the world background: bottom colour at the nadir, top colour at the zenith.",
    params=s.obj({"top": s.ref("color3"), "bottom": s.ref("color3"), "strength": s.number(0, 100)},
                 required=("top", "bottom")),
    result=WORLD_RESULT,
    errors=(),
)
def set_world_gradient(ctx, params):
    world, tree, out = _fresh_world(ctx)
    links = tree.links
    coord = tree.nodes.new("ShaderNodeTexCoord")
    coord.location = (-800, 0)
    sep = tree.nodes.new("ShaderNodeSeparateXYZ")
    sep.location = (-600, 0)
    # The view direction's z runs from -1 (down) to 1 (up); the ramp wants 0..1.
    remap = tree.nodes.new("ShaderNodeMapRange")
    remap.location = (-400, 0)
    remap.inputs["From Min"].default_value, remap.inputs["From Max"].default_value = -1.0, 1.0
    ramp = tree.nodes.new("ShaderNodeValToRGB")
    ramp.location = (-150, 0)
    low, high = ramp.color_ramp.elements
    low.position, low.color = 0.0, list(params["bottom"][:3]) + [1.0]
    high.position, high.color = 1.0, list(params["top"][:3]) + [1.0]
    strength = params.get("strength", 1.0)
    bg = _background(tree, strength, 200, 0)
    links.new(coord.outputs["Generated"], sep.inputs["Vector"])
    links.new(sep.outputs["Z"], remap.inputs["Value"])
    links.new(remap.outputs["Result"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bg.inputs["Color"])
    links.new(bg.outputs["Background"], out.inputs["Surface"])
    world.color = params["bottom"][:3]
    return _answer(world, "gradient", strength)
