# expect: blender-python-class
import bpy_extras.object_utils as ou
op = ou.bpy.types.WM_OT_context_toggle
