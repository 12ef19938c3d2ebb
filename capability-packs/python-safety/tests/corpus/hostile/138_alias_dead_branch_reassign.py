# expect: blender-code-execution
import bpy
o = bpy.ops
if False:
    o = None
o.wm.context_set_value(data_path="scene.name", value="__import__('os').getcwd()")
