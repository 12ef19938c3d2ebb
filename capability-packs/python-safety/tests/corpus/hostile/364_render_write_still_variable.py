# expect: blender-file-access
import bpy

flag = True
bpy.ops.render.render(write_still=flag)
