# expect: blender-value-escape
import bpy
import functools

render = functools.partial(bpy.ops.render.render, write_still=True)
render()
