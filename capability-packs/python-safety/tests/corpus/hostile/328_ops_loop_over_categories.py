# expect: blender-value-escape
import bpy

for cat in (bpy.ops.mesh, bpy.ops.object):
    cat.bake(filepath="/tmp/x.png")
