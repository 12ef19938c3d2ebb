import bpy
class M(bpy.types.Macro):
    bl_idname = 'x.m'
