# expect: blender-python-class
import bpy

def f(cls=bpy.types.SCRIPT_OT_execute_preset):
    return cls
