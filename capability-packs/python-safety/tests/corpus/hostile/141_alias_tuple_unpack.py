# expect: blender-code-execution
import bpy
o, s = bpy.ops, bpy.context.scene
o.console.execute(interactive=True)
