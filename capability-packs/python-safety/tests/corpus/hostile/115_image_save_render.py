# expect: blender-file-access
import bpy
img = bpy.data.images["Render Result"]
img.save_render("/tmp/leak.png")
