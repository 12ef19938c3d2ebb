import bpy
bpy.ops.preferences.asset_library_add(directory="/")
