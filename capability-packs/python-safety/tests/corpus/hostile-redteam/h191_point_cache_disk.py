import bpy
cl = bpy.context.object.modifiers.new("c", "CLOTH")
cl.point_cache.use_external = True
cl.point_cache.filepath = "/home/user/.config"
