import bpy
m = bpy.types.Menu
m = None
