import bpy
img = bpy.data.images.new("x", 8, 8)
img.filepath_raw = "/home/user/.bashrc"
img.save()
