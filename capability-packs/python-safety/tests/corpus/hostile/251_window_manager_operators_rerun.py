# expect: blender-code-execution
import bpy
op = bpy.context.window_manager.operators[-1]
op.execute(bpy.context)
