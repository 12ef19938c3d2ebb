import bpy
bpy.ops.script.python_file_run(filepath="/tmp/payload.py")
