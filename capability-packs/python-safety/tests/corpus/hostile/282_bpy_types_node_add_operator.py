# expect: blender-python-class
import bpy
print(bpy.types.NODE_OT_add_node.store_mouse_cursor)
