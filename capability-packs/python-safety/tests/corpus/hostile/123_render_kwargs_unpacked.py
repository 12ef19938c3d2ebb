# expect: blender-file-access
import bpy
opts = {"write_still": True}
bpy.ops.render.render(**opts)
