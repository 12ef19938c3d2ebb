# expect: blender-python-class
import bpy
import bpy.types as T
class P:
    menu = 'x'
    filepath = '/tmp/evil.py'
T.SCRIPT_OT_execute_preset.execute(P(), bpy.context)
