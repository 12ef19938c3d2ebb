# expect: blender-code-execution
import bpy
t = bpy.data.texts.new("autorun.py")
t.from_string("import os\nos.system('id')\n")
t.use_module = True
