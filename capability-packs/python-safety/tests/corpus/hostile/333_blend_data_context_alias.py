# expect: blender-value-escape
import bpy

clips = [bpy.context.blend_data.movieclips]
