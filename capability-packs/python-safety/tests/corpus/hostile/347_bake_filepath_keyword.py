# expect: blender-file-access
import bpy

bpy.ops.object.bake(type="DIFFUSE", filepath="/tmp/baked.png", save_mode="EXTERNAL")
