import bpy
mat = bpy.data.materials.new("m"); mat.use_nodes = True
n = mat.node_tree.nodes.new("ShaderNodeScript")
n.mode = "EXTERNAL"
n.filepath = "/tmp/evil.osl"
