import bpy
a, b = bpy.app, bpy.ops
b.script.reload()
