import bpy
from enum import Enum

class Shape(Enum):
    CUBE = "cube"
    SPHERE = "sphere"
    CYLINDER = "cylinder"
    CONE = "cone"
    TORUS = "torus"

def add_shape(shape: Shape, location):
    match shape:
        case Shape.CUBE:
            bpy.ops.mesh.primitive_cube_add(size=1.5, location=location)
        case Shape.SPHERE:
            bpy.ops.mesh.primitive_uv_sphere_add(radius=0.8, location=location)
        case Shape.CYLINDER:
            bpy.ops.mesh.primitive_cylinder_add(radius=0.6, depth=1.8, location=location)
        case Shape.CONE:
            bpy.ops.mesh.primitive_cone_add(radius1=0.8, depth=1.6, location=location)
        case Shape.TORUS:
            bpy.ops.mesh.primitive_torus_add(major_radius=0.8, minor_radius=0.25, location=location)
        case _:
            raise ValueError(f"unknown shape {shape}")
    obj = bpy.context.active_object
    obj.name = shape.value.capitalize()
    return obj

for i, shape in enumerate(Shape):
    o = add_shape(shape, (i * 2.5 - 5, 0, 1))
    match o.dimensions.z:
        case z if z > 1.5:
            o["category"] = "tall"
        case _:
            o["category"] = "short"
