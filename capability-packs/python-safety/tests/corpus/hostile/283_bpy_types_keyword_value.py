# expect: blender-python-class
import bpy
print(sep=bpy.types.WM_OT_context_toggle)
