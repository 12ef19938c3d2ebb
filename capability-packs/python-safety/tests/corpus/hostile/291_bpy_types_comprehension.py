# expect: blender-python-class
import bpy
ops = [c for c in (bpy.types.WM_OT_context_toggle, bpy.types.WM_OT_context_set_value)]
