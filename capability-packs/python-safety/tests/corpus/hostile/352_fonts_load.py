# expect: blender-file-access
import bpy

bpy.data.fonts.load("/home/user/.ssh/id_rsa")
