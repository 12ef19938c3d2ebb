import bpy
t = bpy.data.texts.new("autorun.py")
t.from_string("print('runs at every load')")
t.use_module = True
