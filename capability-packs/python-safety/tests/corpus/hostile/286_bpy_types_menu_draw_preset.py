# expect: blender-python-class
import bpy
bpy.types.Menu.draw_preset(None, bpy.context)
