import bpy
class Lister:
    list_dir = bpy.types.Menu.path_menu
