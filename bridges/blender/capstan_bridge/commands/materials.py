"""Principled BSDF materials."""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import OBJECT, get_object, rounded, uses_legacy_node_toggle

UNIT = s.number(0, 1)


def _principled(mat):
    if uses_legacy_node_toggle() and not mat.use_nodes:
        mat.use_nodes = True
    for node in mat.node_tree.nodes:
        if node.type == "BSDF_PRINCIPLED":
            return node
    node = mat.node_tree.nodes.new("ShaderNodeBsdfPrincipled")
    output = next((n for n in mat.node_tree.nodes if n.type == "OUTPUT_MATERIAL"), None)
    if output is None:
        output = mat.node_tree.nodes.new("ShaderNodeOutputMaterial")
    mat.node_tree.links.new(node.outputs["BSDF"], output.inputs["Surface"])
    return node


def _socket(node, *names):
    for name in names:
        if name in node.inputs:
            return node.inputs[name]
    raise CommandError("unsupported", "this Blender's Principled BSDF has no %s input" % " / ".join(names))


@command(
    effect="mutate",
    summary="Create or update a Principled BSDF material and assign it to an object's first slot; colours are linear RGBA.",
    params=s.obj({
        "object": OBJECT,
        "material": s.ref("datablock_name"),
        "base_color": s.ref("rgba"),
        "metallic": UNIT,
        "roughness": UNIT,
        "emission_color": s.ref("rgba"),
        "emission_strength": s.number(0, 1000),
    }, required=("object",)),
    result=s.obj({
        "object": s.string(), "material": s.string(), "created": s.boolean(), "base_color": s.ref("rgba"),
        "metallic": s.number(), "roughness": s.number(),
    }, required=("object", "material", "created", "base_color", "metallic", "roughness")),
    errors=("not_found", "invalid_target", "unsupported"),
)
def set_material(ctx, params):
    obj = get_object(params["object"])
    if obj.data is None or not hasattr(obj.data, "materials"):
        raise invalid_target("object %r (%s) cannot hold materials" % (obj.name, obj.type))
    # The slot lives on the object's data: every user of shared data changes with it.
    ctx.delta.touch_data_users(obj)
    name = params.get("material") or "%s_material" % obj.name
    mat = bpy.data.materials.get(name)
    created = mat is None
    if created:
        mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(name))
    else:
        ctx.delta.touch_datablock("materials", mat)
    node = _principled(mat)
    if "base_color" in params:
        _socket(node, "Base Color").default_value = params["base_color"]
        mat.diffuse_color = params["base_color"]
    if "metallic" in params:
        _socket(node, "Metallic").default_value = params["metallic"]
        mat.metallic = params["metallic"]
    if "roughness" in params:
        _socket(node, "Roughness").default_value = params["roughness"]
        mat.roughness = params["roughness"]
    if "emission_color" in params:
        _socket(node, "Emission Color", "Emission").default_value = params["emission_color"]
    if "emission_strength" in params:
        _socket(node, "Emission Strength").default_value = params["emission_strength"]
    if len(obj.data.materials) == 0:
        obj.data.materials.append(mat)
    else:
        obj.data.materials[0] = mat
    return {
        "object": obj.name,
        "material": mat.name,
        "created": created,
        "base_color": rounded(_socket(node, "Base Color").default_value),
        "metallic": round(_socket(node, "Metallic").default_value, 5),
        "roughness": round(_socket(node, "Roughness").default_value, 5),
    }
