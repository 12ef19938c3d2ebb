import bpy
hdr = bpy.types.VIEW3D_HT_header
hdr.prepend(lambda self, ctx: None)
