# expect: blender-value-escape
from bpy import ops

ops.render.render(write_still=True)
