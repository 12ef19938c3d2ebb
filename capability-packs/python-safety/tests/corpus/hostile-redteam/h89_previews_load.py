import bpy.utils.previews
pc = bpy.utils.previews.new()
pc.load("k", "/home/user/.ssh/id_rsa", "IMAGE")
