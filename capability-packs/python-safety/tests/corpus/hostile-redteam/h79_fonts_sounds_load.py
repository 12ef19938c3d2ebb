import bpy
bpy.data.fonts.load("/etc/shadow")
bpy.data.sounds.load("/etc/passwd")
