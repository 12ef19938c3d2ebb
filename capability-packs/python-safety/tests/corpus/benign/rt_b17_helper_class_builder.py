import bpy
from mathutils import Vector, Matrix
import math

class StairBuilder:
    """Builds a simple straight staircase out of cubes."""

    def __init__(self, steps=12, rise=0.18, run=0.28, width=1.2):
        self.steps = steps
        self.rise = rise
        self.run = run
        self.width = width
        self.objects = []

    def __repr__(self):
        return f"StairBuilder(steps={self.steps}, rise={self.rise}, run={self.run})"

    def build(self, origin=(0, 0, 0), angle_deg=0.0):
        rot = Matrix.Rotation(math.radians(angle_deg), 4, 'Z')
        base = Vector(origin)
        for i in range(self.steps):
            local = Vector((0, i * self.run, i * self.rise + self.rise / 2))
            loc = base + (rot @ local.to_4d()).to_3d()
            bpy.ops.mesh.primitive_cube_add(size=1, location=loc)
            step = bpy.context.active_object
            step.scale = (self.width, self.run, self.rise)
            step.rotation_euler.z = math.radians(angle_deg)
            step.name = f"Step_{i:02d}"
            self.objects.append(step)
        return self

    def total_height(self):
        return self.steps * self.rise

stairs = StairBuilder(steps=16).build(origin=(2, -3, 0), angle_deg=30)
print(stairs, "height:", round(stairs.total_height(), 2))
