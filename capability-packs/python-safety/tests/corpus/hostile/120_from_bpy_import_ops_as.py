# expect: blender-code-execution
from bpy import ops as o
o.wm.quit_blender()
