# expect: blender-python-class
import bpy
class Fake:
    pass
bpy.types.Mesh.from_pydata(Fake(), [], [], [])
