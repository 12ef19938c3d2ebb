import bpy
bpy.ops.sound.mixdown(filepath="/home/user/.profile", container="WAV")
