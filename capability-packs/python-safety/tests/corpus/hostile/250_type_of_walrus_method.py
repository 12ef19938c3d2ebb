# expect: blender-python-class
import bpy
f = (t := type(bpy.context.scene)).frame_set
