# expect: blender-python-class
import bpy
class E(bpy.types.RenderEngine):
    bl_idname = 'X'
