import bpy
bpy.ops.node.add_file(filepath="/etc/shadow")
