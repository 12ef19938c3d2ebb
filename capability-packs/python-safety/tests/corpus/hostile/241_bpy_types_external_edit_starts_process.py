# expect: blender-python-class
import bpy
class P:
    filepath = '/bin/sh'
bpy.types.IMAGE_OT_external_edit.execute(P(), bpy.context)
