# expect: blender-file-access
import bpy

bpy.ops.brush.asset_save_as(name="x")
