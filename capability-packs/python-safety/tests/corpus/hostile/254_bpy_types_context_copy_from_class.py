# expect: blender-python-class
import bpy
bpy.types.Context.copy(bpy.context)
