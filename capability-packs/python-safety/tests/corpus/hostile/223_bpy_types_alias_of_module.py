# expect: blender-python-class
import bpy
t = bpy.types
op = t.NODE_OT_add_node
print(op)
