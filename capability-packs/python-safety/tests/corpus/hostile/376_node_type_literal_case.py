# expect: blender-file-access
import bpy

scene = bpy.context.scene
scene.compositing_node_group.nodes.new("compositornodeoutputfile")
