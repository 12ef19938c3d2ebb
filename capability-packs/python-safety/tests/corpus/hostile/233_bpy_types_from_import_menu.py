# expect: blender-python-class
from bpy.types import Menu
print(Menu)
