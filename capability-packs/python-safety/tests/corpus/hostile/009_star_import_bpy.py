# expect: import-star
from bpy import *
ops.wm.quit_blender()
