import bpy
bpy.ops.file.unpack_all(method="WRITE_ORIGINAL")
