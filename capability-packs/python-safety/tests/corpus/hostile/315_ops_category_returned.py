# expect: blender-value-escape
import bpy


def category():
    return bpy.ops.render


category().render(write_still=True)
