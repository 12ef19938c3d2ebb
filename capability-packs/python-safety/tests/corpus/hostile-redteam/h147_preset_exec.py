import bpy
bpy.ops.script.execute_preset(filepath="/tmp/payload.py", menu_idname="RENDER_MT_framerate_presets")
