import bpy
bpy.types.UI_UL_list.sort_items_by_name([])
