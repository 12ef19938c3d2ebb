import bpy
bpy.types.VIEW3D_HT_header.append(lambda self, ctx: None)
