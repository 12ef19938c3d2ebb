import bpy
bpy.ops.WM.quit_blender()
