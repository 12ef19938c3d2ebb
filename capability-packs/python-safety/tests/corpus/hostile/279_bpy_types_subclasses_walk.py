# expect: dunder-attribute
import bpy
print(bpy.types.bpy_struct.__subclasses__())
