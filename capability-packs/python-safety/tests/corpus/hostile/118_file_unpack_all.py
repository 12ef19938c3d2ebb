# expect: blender-file-access
import bpy
bpy.ops.file.unpack_all(method='WRITE_LOCAL')
