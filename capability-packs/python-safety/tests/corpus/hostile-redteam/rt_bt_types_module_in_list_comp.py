import bpy
mods = [m for m in (bpy.types,)]
