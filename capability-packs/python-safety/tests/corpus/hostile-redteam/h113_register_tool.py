import bpy
class T(bpy.types.WorkSpaceTool):
    bl_space_type = "VIEW_3D"; bl_context_mode = "OBJECT"
    bl_idname = "x.t"; bl_label = "t"
bpy.utils.register_tool(T)
