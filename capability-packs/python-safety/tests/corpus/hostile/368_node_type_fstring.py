# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
part = "Import"
group.nodes.new(f"GeometryNode{part}Text")
