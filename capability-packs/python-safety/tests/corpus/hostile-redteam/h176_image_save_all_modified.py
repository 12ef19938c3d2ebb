import bpy
bpy.ops.image.save_all_modified()
