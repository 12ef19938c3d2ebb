# expect: blender-code-execution
import bpy
getattr(bpy.ops, "wm").quit_blender()
