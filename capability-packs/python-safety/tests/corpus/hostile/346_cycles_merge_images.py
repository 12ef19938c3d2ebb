# expect: blender-file-access
import bpy

bpy.ops.cycles.merge_images(input_filepath1="/etc/a", input_filepath2="/etc/b", output_filepath="/tmp/m.exr")
