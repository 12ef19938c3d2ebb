# expect: blender-file-access
import bpy

bpy.ops.render.opengl(animation=1)
