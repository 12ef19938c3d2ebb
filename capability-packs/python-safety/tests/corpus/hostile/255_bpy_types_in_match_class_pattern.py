# expect: blender-python-class
import bpy
obj = bpy.context.object
match obj:
    case bpy.types.Operator():
        print('op')
