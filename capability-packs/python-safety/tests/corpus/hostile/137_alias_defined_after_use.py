# expect: blender-code-execution
import bpy
def shutdown():
    ops.wm.quit_blender()
ops = bpy.ops
shutdown()
