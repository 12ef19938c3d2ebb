# expect: blender-python-class
import bpy
bpy.types.WindowManager.popup_menu
