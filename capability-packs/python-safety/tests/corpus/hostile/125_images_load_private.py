# expect: blender-file-access
import bpy
img = bpy.data.images.load("/home/user/Pictures/private.jpg", check_existing=True)
print(list(img.pixels[:16]))
