import bpy
from enum import Enum

# Primitives created from option dictionaries, and the scene's unit system.
class Shape(Enum):
    CUBE = "cube"
    SPHERE = "sphere"

    def create(self, **options):
        if self is Shape.CUBE:
            bpy.ops.mesh.primitive_cube_add(**options)
        else:
            bpy.ops.mesh.primitive_uv_sphere_add(segments=24, **options)

for i, shape in enumerate(Shape):
    shape.create(location=(i * 3, 0, 0), scale=(1, 1, 1))
common = {"align": 'WORLD', "location": (0, 0, 2)}
bpy.ops.object.light_add(type='AREA', **common)
bpy.ops.curve.primitive_bezier_circle_add(radius=2, **common)
units = bpy.context.scene.unit_settings
units.system = 'METRIC'
units.length_unit = 'CENTIMETERS'
