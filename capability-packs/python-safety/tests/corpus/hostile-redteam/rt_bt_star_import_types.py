from bpy.types import *
