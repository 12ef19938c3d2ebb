import bpy
bpy.ops.console.execute(interactive=False)
