# expect: blender-file-access
import bpy

bpy.ops.node.add_import_node()
