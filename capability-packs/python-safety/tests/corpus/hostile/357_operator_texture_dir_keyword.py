# expect: blender-file-access
import bpy

bpy.ops.mesh.primitive_cube_add(export_texture_dir="/tmp/")
