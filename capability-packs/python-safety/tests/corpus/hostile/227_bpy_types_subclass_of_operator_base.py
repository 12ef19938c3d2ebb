# expect: blender-python-class
import bpy
class Op(bpy.types.Operator):
    bl_idname = 'object.x'
    bl_label = 'x'
