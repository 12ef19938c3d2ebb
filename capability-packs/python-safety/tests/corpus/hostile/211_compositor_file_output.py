# expect: blender-file-access
import bpy
ng = bpy.data.node_groups.new("c", "CompositorNodeTree")
fo = ng.nodes.new("CompositorNodeOutputFile")
fo.file_name = "../home/user/.bashrc"
bpy.ops.render.render()
