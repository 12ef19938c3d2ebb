# expect: blender-code-execution
import bpy
o = [bpy.ops][0]
o.wm.quit_blender()
