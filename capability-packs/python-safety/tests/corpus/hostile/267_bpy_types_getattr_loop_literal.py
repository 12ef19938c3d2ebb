# expect: blender-python-class
import bpy
for n in ('SCRIPT_OT_execute_preset',):
    getattr(bpy.types, n)
