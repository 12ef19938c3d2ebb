import bpy
sc = bpy.context.scene
sc.use_nodes = True
n = sc.node_tree.nodes.new("CompositorNodeOutputFile")
n.base_path = "/home/user/.config/autostart/"
