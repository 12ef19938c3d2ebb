# expect: blender-value-escape
from bpy.ops import render

render.render(write_still=True)
