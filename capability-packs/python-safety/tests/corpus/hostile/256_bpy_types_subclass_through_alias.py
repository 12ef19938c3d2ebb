# expect: blender-python-class
import bpy
T = bpy.types
class P(T.Panel):
    bl_label = 'x'
