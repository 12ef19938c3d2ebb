# expect: blender-python-class
from bpy.types import Menu as M
print(M)
