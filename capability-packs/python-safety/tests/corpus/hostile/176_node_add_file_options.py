# expect: blender-file-access
import bpy
opts = dict(filepath="/etc/passwd")
bpy.ops.node.add_file(**opts)
