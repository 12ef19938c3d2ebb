# expect: blender-file-access
import bpy

bpy.data.movieclips.load("/home/user/clip.mp4")
