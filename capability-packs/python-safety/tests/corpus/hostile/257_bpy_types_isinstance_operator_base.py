# expect: blender-python-class
import bpy
print(isinstance(bpy.context.object, bpy.types.Operator))
