import bpy
bpy.ops.render.preset_add(name="HDTV 1080p", remove_active=True)
bpy.ops.camera.preset_add(name="evil")
