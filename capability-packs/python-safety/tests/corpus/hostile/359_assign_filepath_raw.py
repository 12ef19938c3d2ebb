# expect: blender-file-access
import bpy

img = bpy.data.images.new("i", 8, 8)
img.filepath_raw = "/tmp/out.png"
