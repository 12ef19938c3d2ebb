import bpy
o = bpy.ops
o.text.run_script()
