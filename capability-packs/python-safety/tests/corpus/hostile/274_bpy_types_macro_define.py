# expect: blender-python-class
import bpy
bpy.types.Macro.define('x')
