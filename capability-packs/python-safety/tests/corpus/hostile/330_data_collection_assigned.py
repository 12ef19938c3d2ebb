# expect: blender-value-escape
import bpy

images = bpy.data.images
