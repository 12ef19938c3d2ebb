# expect: blender-file-access
import bpy

bpy.ops.cycles.denoise_animation(output_filepath="/tmp/denoised.exr")
