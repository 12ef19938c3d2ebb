import bpy, mathutils
T = [mathutils.Vector, bpy.types][1]
