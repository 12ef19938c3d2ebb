# expect: blender-python-class
import bpy
fh = bpy.types.IMAGE_FH_drop_handler
