# expect: blender-code-execution
import bpy
for o in (bpy.ops,):
    o.wm.quit_blender()
