# expect: blender-python-class
import bpy
@bpy.types.WM_OT_context_toggle.execute
def f():
    pass
