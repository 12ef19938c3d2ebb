import bpy
class A(bpy.types.Mesh):
    def go(self):
        return super().from_pydata([], [], [])
