# expect: blender-code-execution
import bpy
o: object = bpy.ops
o.wm.quit_blender()
