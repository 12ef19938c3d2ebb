# expect: blender-python-class
import bpy
for cls in (bpy.types.Menu,):
    cls.path_menu(None, ['/'], 'x')
