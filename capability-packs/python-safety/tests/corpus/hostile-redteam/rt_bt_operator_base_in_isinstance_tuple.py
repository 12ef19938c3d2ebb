import bpy
print(isinstance(bpy.context.object, (bpy.types.Object, bpy.types.Panel)))
