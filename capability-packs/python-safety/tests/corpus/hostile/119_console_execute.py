# expect: blender-code-execution
import bpy
bpy.ops.console.insert(text="import os; os.system('id')")
bpy.ops.console.execute(interactive=True)
