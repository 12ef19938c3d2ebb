import bpy
bpy.ops.image.save()
bpy.ops.image.unpack(method="WRITE_ORIGINAL")
