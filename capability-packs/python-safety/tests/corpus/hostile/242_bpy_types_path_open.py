# expect: blender-python-class
import bpy
class P:
    filepath = '/etc'
bpy.types.WM_OT_path_open.execute(P(), bpy.context)
