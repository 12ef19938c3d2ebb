# expect: blender-value-escape
import bpy

if (cat := bpy.ops.render):
    cat.render(write_still=True)
