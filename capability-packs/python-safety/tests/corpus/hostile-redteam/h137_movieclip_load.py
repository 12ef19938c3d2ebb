import bpy
bpy.data.movieclips.load("/etc/hosts")
