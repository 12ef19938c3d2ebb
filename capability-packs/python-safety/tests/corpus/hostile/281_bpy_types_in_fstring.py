# expect: blender-python-class
import bpy
print(f'{bpy.types.WM_OT_context_toggle}')
