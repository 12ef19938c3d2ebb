from bpy import types as t
class X(t.Operator):
    bl_idname = 'x.y'
