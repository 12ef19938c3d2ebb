# expect: blender-python-class
import bpy
s = {bpy.types.WM_OT_context_toggle}
