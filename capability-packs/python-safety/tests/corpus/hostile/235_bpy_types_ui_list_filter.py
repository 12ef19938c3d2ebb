# expect: blender-python-class
import bpy
print(bpy.types.UI_UL_list.filter_items_by_name)
