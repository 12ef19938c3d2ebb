import bpy
kids = bpy.types.Object.children_recursive.fget(object())
