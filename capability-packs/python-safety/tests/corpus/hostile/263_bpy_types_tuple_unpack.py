# expect: blender-python-class
import bpy
a, b = bpy.types.WM_OT_context_toggle, 1
