# expect: blender-code-execution
import bpy
ｏ = bpy.ops
o.wm.quit_blender()
