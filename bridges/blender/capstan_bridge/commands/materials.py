"""Principled BSDF materials."""

import bpy

from .common import get_object, rounded, uses_legacy_node_toggle
from .errors import CommandError


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
    raise CommandError("blender_error", "this Blender's Principled BSDF has no %s input" % " / ".join(names))


def set_material(ctx, params):
    obj = get_object(params["object"])
    if obj.data is None or not hasattr(obj.data, "materials"):
        raise CommandError("invalid_target", "object %r (%s) cannot hold materials" % (obj.name, obj.type))
    name = params.get("material") or "%s_material" % obj.name
    mat = bpy.data.materials.get(name) or bpy.data.materials.new(name)
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
        "base_color": rounded(_socket(node, "Base Color").default_value),
        "metallic": round(_socket(node, "Metallic").default_value, 5),
        "roughness": round(_socket(node, "Roughness").default_value, 5),
    }
