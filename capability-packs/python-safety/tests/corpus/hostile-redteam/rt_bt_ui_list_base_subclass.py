import bpy
T = bpy.types
class L(T.UIList):
    pass
