# expect: blender-python-class
import bpy

def f(x: bpy.types.WM_OT_context_toggle):
    return x
