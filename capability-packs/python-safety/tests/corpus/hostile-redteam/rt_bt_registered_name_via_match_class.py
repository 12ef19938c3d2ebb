import bpy
match bpy.context.object:
    case bpy.types.VIEW3D_PT_tools_active():
        pass
