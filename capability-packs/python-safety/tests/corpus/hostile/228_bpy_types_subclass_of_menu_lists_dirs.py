# expect: blender-python-class
import bpy
class Lister(bpy.types.Menu):
    bl_label = 'x'
