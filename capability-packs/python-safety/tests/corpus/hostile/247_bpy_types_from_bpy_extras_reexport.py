# expect: blender-python-class
from bpy_extras import object_utils
print(object_utils.bpy.types.Operator)
