# expect: blender-file-access
import bpy

bpy.ops.dynamic_paint.bake()
