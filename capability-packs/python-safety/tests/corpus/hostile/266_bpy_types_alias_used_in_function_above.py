# expect: blender-python-class
import bpy

def go(p):
    return ty.WM_OT_context_toggle.execute(p, bpy.context)

ty = bpy.types
