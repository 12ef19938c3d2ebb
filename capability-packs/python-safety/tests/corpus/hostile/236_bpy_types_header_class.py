# expect: blender-python-class
import bpy
h = bpy.types.TEXT_HT_header
