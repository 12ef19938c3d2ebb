# expect: blender-value-escape
from bpy.data import texts
