import bpy
t = bpy.data.texts.new("m.py")
t.write("import os\nos.system('id')")
t.as_module()
