import bpy
bpy.context.scene.render.fps = 30
bpy.ops.Wm.save_userpref()
bpy.ops.Wm.save_mainfile()
