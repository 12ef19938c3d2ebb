# expect: blender-value-escape
import bpy


def first(collection):
    return collection


first(bpy.data.sounds)
