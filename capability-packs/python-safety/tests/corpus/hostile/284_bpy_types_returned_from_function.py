# expect: blender-python-class
import bpy

def op():
    return bpy.types.WM_OT_context_set_value
