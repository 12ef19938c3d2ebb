import bpy
t = bpy.data.texts.new("x")
T = bpy.types.Text
T.as_module(t)
