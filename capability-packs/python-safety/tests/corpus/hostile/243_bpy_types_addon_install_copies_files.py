# expect: blender-python-class
import bpy
op = bpy.types.PREFERENCES_OT_addon_install
