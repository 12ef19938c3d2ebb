# expect: blender-python-class
import bpy
bpy.types.TEXT_MT_templates_py.draw(None, bpy.context)
