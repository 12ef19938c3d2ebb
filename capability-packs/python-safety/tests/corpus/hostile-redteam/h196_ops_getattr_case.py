import bpy
getattr(bpy.ops, "WM").quit_blender()
