# expect: blender-python-class
import bpy
k = bpy.types.KeyingSetInfo
