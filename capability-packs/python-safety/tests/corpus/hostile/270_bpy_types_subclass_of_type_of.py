# expect: blender-python-class
import bpy
class S(type(bpy.context.scene)):
    pass
