# expect: blender-file-access
import bpy

bpy.ops.cycles.denoise_animation()
