# expect: blender-code-execution
import bpy
if (o := bpy.ops):
    o.wm.context_set_value(data_path="scene.name", value="__import__('os').system('id')")
