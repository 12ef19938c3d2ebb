# expect: blender-python-class
import bpy
run = bpy.types.WM_OT_context_toggle.execute

def later(p):
    return run(p, bpy.context)
