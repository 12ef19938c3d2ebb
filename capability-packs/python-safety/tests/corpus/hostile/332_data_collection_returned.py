# expect: blender-value-escape
import bpy


def fonts():
    return bpy.data.fonts


result = fonts()
