import bpy
bpy.ops.TEXT.run_script()
