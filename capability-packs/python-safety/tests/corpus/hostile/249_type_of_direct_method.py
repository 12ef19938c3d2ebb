# expect: blender-python-class
import bpy
m = type(bpy.context.window_manager).popover
