# Helpers annotated with Blender's types, the way an editor's autocompletion wants them.
from __future__ import annotations

import bpy
from bpy.types import Material, Object, ShaderNodeBsdfPrincipled
from mathutils import Vector


def principled(material: Material) -> ShaderNodeBsdfPrincipled | None:
    for node in material.node_tree.nodes:
        if isinstance(node, bpy.types.ShaderNodeBsdfPrincipled):
            return node
    return None


def tint(obj: bpy.types.Object, color: tuple[float, float, float]) -> Material:
    mat = bpy.data.materials.new(name=f"{obj.name}_tint")
    mat.use_nodes = True
    bsdf = principled(mat)
    if bsdf is not None:
        bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    obj.data.materials.append(mat)
    return mat


def offset(obj: Object, by: Vector) -> None:
    obj.location = obj.location + by


bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0)
sphere: bpy.types.Object = bpy.context.active_object
made = tint(sphere, (0.8, 0.2, 0.1))
offset(sphere, Vector((0.0, 0.0, 1.0)))
result = {"material": made.name, "z": round(sphere.location.z, 3)}
