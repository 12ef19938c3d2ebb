# expect: blender-file-access
import bpy

bpy.ops.node.add_node(type="ShaderNode" + "Script", use_transform=True)
