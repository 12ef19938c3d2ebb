import bpy
from bpy.utils import register_class as rc
class OBJECT_OT_x(bpy.types.Operator):
    bl_idname = "object.x"; bl_label = "x"
    def execute(self, context): return {"FINISHED"}
rc(OBJECT_OT_x)
