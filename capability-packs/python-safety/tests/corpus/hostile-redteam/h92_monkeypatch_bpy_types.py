import bpy
bpy.types.Object.evil = property(lambda self: print("hook"))
