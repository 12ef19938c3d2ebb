"""The world background: flat colour or a procedural sky."""

import bpy

from ..core import schema as s
from ..command import command
from .common import scene, uses_legacy_node_toggle


def _nodes(world):
    if uses_legacy_node_toggle() and not world.use_nodes:
        world.use_nodes = True
    tree = world.node_tree
    output = next((n for n in tree.nodes if n.type == "OUTPUT_WORLD"), None) or tree.nodes.new("ShaderNodeOutputWorld")
    background = next((n for n in tree.nodes if n.type == "BACKGROUND"), None)
    if background is None:
        background = tree.nodes.new("ShaderNodeBackground")
        tree.links.new(background.outputs["Background"], output.inputs["Surface"])
    return tree, background


@command(
    effect="mutate",
    summary="Set the world background: a flat colour with strength, or a procedural sky.",
    params=s.obj({
        "color": s.ref("color3"),
        "strength": s.number(0, 1000),
        "sky": s.obj({
            "sun_elevation": s.number(-1.5708, 1.5708, description="Radians above the horizon"),
            "sun_rotation": s.number(-6.2832, 6.2832, description="Radians around the vertical axis"),
        }),
    }, min_properties=1),
    result=s.obj({
        "world": s.string(), "mode": s.enum(("sky", "color")), "color": s.ref("vec3"), "strength": s.number(),
    }, required=("world", "mode", "color", "strength")),
    errors=(),
)
def set_world(ctx, params):
    s_ = scene()
    ctx.delta.touch_settings("world")
    world = s_.world
    if world is None:
        ctx.delta.touch_settings("scene")
        world = ctx.delta.created_datablock("worlds", bpy.data.worlds.new("World"))
        s_.world = world
    else:
        ctx.delta.touch_datablock("worlds", world)
    tree, background = _nodes(world)
    color_in = background.inputs["Color"]
    if "color" in params:
        for link in list(color_in.links):
            tree.links.remove(link)
        color = list(params["color"][:3]) + [1.0]
        color_in.default_value = color
        world.color = color[:3]
    if "sky" in params:
        sky = next((n for n in tree.nodes if n.type == "TEX_SKY"), None) or tree.nodes.new("ShaderNodeTexSky")
        for key in ("sun_elevation", "sun_rotation"):
            if key in params["sky"] and hasattr(sky, key):
                setattr(sky, key, params["sky"][key])
        tree.links.new(sky.outputs["Color"], color_in)
    if "strength" in params:
        background.inputs["Strength"].default_value = params["strength"]
    return {
        "world": world.name,
        "mode": "sky" if color_in.is_linked else "color",
        "color": [round(v, 5) for v in color_in.default_value[:3]],
        "strength": round(background.inputs["Strength"].default_value, 5),
    }
