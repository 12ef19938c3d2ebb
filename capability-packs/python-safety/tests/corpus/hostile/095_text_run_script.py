# expect: blender-code-execution
import bpy
t = bpy.data.texts.new("setup.py")
t.write("import os\nos.system('id')\n")
with bpy.context.temp_override(edit_text=t):
    bpy.ops.text.run_script()
