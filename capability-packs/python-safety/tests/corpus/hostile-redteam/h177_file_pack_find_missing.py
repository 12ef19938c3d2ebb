import bpy
bpy.ops.file.find_missing_files(directory="/home/user")
bpy.ops.file.pack_all()
