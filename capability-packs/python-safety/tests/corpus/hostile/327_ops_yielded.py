# expect: blender-value-escape
import bpy


def cats():
    yield bpy.ops.cycles


for c in cats():
    c.denoise_animation(output_filepath="/tmp/out.exr")
