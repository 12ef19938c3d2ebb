import bpy
for img in bpy.data.images:
    img.unpack(method="WRITE_LOCAL")
