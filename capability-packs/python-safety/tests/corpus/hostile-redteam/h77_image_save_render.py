import bpy
bpy.data.images.new("y", 4, 4).save_render("/tmp/overwrite.png")
