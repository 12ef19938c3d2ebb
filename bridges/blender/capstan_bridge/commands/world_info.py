"""Reading the world back: which look it has (flat colour, gradient, sky, HDRI) and its
values, from the node feeding the world's Background colour. The looks are the ones
world.py and world_looks.py build; a tree built by hand is described by its kind of
node, or as `other`. Degrees, linear colours."""

import math
import os

from ..core import schema as s
from ..command import command
from .common import rounded, scene, uses_legacy_node_toggle

MODES = ("none", "color", "gradient", "sky", "hdri", "other")


def _background(world):
    if uses_legacy_node_toggle() and not world.use_nodes:
        return None
    tree = world.node_tree
    if tree is None:
        return None
    output = next((n for n in tree.nodes if n.type == "OUTPUT_WORLD" and n.is_active_output), None)
    output = output or next((n for n in tree.nodes if n.type == "OUTPUT_WORLD"), None)
    if output is None or not output.inputs["Surface"].is_linked:
        return None
    node = output.inputs["Surface"].links[0].from_node
    return node if node.type == "BACKGROUND" else None


def _source(background):
    color = background.inputs["Color"]
    return color.links[0].from_node if color.is_linked else None


def _sky(node):
    out = {"sky_type": node.sky_type}
    if hasattr(node, "sun_elevation"):
        out["sun_elevation_degrees"] = round(math.degrees(node.sun_elevation), 3)
        out["sun_rotation_degrees"] = round(math.degrees(node.sun_rotation), 3)
    return out


@command(
    effect="read",
    summary="The world as it looks: none, a flat colour, a vertical gradient, a sky or an HDRI, with its colours (linear), strength, sky sun angles in degrees and HDRI file name.",
    params=s.obj({}),
    result=s.obj({
        "world": s.nullable(s.string()),
        "mode": s.enum(MODES),
        "strength": s.nullable(s.number()),
        "color": s.nullable(s.vector(3)),
        "gradient": s.nullable(s.obj({"bottom": s.ref("vec3"), "top": s.ref("vec3")}, required=("bottom", "top"))),
        "sky": s.nullable(s.obj({"sky_type": s.string(), "sun_elevation_degrees": s.number(), "sun_rotation_degrees": s.number()},
                                required=("sky_type",))),
        "hdri": s.nullable(s.obj({"image": s.nullable(s.string()), "file": s.nullable(s.string())}, required=("image", "file"))),
        "nodes": s.array(s.string()),
    }, required=("world", "mode", "strength", "color", "gradient", "sky", "hdri", "nodes")),
    errors=(),
)
def get_world_info(ctx, params):
    world = scene().world
    answer = {"world": None, "mode": "none", "strength": None, "color": None, "gradient": None, "sky": None, "hdri": None, "nodes": []}
    if world is None:
        return answer
    answer["world"] = world.name
    answer["color"] = rounded(world.color[:3])
    tree = world.node_tree if not uses_legacy_node_toggle() or world.use_nodes else None
    answer["nodes"] = sorted(n.bl_idname for n in tree.nodes) if tree is not None else []
    background = _background(world)
    if background is None:
        answer["mode"] = "color" if tree is None else "other"
        return answer
    answer["strength"] = round(background.inputs["Strength"].default_value, 5)
    source = _source(background)
    if source is None:
        answer["mode"] = "color"
        answer["color"] = rounded(background.inputs["Color"].default_value[:3])
    elif source.type == "VALTORGB":
        elements = source.color_ramp.elements
        answer["mode"] = "gradient"
        answer["gradient"] = {"bottom": rounded(elements[0].color[:3]), "top": rounded(elements[-1].color[:3])}
    elif source.type == "TEX_SKY":
        answer["mode"] = "sky"
        answer["sky"] = _sky(source)
    elif source.type == "TEX_ENVIRONMENT":
        image = source.image
        answer["mode"] = "hdri"
        answer["hdri"] = {"image": image.name if image else None,
                          "file": os.path.basename(image.filepath) if image and image.filepath else None}
    else:
        answer["mode"] = "other"
    return answer
