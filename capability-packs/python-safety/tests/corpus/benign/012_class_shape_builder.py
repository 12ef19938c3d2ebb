import bpy
from mathutils import Vector


class ShapeSpec:
    def __init__(self, kind, location, size=1.0):
        self.kind = kind
        self.location = Vector(location)
        self.size = size

    def __repr__(self):
        return f"ShapeSpec({self.kind!r}, {tuple(self.location)}, size={self.size})"

    def build(self):
        if self.kind == "cube":
            bpy.ops.mesh.primitive_cube_add(size=self.size, location=self.location)
        elif self.kind == "sphere":
            bpy.ops.mesh.primitive_uv_sphere_add(radius=self.size / 2, location=self.location)
        else:
            bpy.ops.mesh.primitive_cone_add(radius1=self.size / 2, depth=self.size, location=self.location)
        return bpy.context.active_object


specs = [
    ShapeSpec("cube", (0, 0, 0.5)),
    ShapeSpec("sphere", (2, 0, 0.5)),
    ShapeSpec("cone", (4, 0, 0.5), size=1.5),
]
for spec in specs:
    obj = spec.build()
    print(spec, "->", obj.name)
