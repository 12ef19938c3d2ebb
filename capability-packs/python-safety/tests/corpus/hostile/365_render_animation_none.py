# expect: blender-file-access
import bpy

bpy.ops.render.render(animation=None)
