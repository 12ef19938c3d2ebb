# expect: blender-file-access
import bpy
scene = bpy.context.scene
scene.use_nodes = True
out = scene.node_tree.nodes.new("CompositorNodeOutputFile")
out.base_path = "/root/.config/autostart/"
bpy.ops.render.render()
