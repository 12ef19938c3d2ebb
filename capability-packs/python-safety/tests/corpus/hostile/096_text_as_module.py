# expect: blender-code-execution
import bpy
bpy.data.texts["helper.py"].as_module().run()
