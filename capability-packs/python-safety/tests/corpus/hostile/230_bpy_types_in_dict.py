# expect: blender-python-class
import bpy
table = {'set': bpy.types.WM_OT_context_set_value}
print(table)
