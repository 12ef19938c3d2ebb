# expect: blender-file-access,blender-code-execution
import bpy
bpy.ops.wm.stl_export(filepath="/tmp/x.stl")
