import bpy
r = bpy.context.scene.path_resolve("render")
r.filepath = "/home/user/.config/autostart/x"
bpy.ops.render.render(write_still=True)
