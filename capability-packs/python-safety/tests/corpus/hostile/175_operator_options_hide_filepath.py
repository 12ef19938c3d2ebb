# expect: blender-file-access
import bpy
options = {"filepath": "/home/user/.config/blender/startup.blend"}
bpy.ops.object.empty_image_add(**options)
