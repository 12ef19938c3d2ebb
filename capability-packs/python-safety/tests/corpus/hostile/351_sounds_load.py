# expect: blender-file-access
import bpy

bpy.data.sounds.load("/home/user/secret.wav")
