# expect: blender-value-escape
import bpy


def go(cat=bpy.ops.render):
    cat.render(write_still=True)


go()
