# expect: blender-python-class
import bpy
class Holder:
    op = bpy.types.WM_OT_context_toggle
