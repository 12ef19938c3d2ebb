# expect: blender-file-access
# Issue 26: a computed node type on a node collection not named `nodes`.
import bpy

mat = bpy.data.materials.new("m")
mat.use_nodes = True
coll = mat.node_tree.nodes
coll.new("ShaderNode" + "Script")
