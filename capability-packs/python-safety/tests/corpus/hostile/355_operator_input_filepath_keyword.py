# expect: blender-file-access
import bpy

bpy.ops.object.multires_external_save(filepath="/tmp/x.btx")
