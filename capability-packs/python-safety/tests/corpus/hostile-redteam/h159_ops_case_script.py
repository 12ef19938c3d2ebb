import bpy
bpy.ops.SCRIPT.python_file_run(filepath="/tmp/payload.py")
