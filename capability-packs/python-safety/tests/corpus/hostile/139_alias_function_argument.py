# expect: blender-code-execution
import bpy
def run(ops):
    ops.script.reload()
run(bpy.ops)
