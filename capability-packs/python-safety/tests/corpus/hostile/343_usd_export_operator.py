# expect: blender-file-access
import bpy

bpy.ops.wm.usd_export(filepath="/tmp/scene.usd")
