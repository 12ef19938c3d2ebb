import bpy
snapshot = bpy.types.Context.copy
