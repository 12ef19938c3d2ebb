import bpy
class H(bpy.types.FileHandler):
    bl_idname = 'X_FH_y'
