import bpy
bpy.ops.ｗｍ.quit_blender()
