# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
kind = "GeometryNode" + "ImportSTL"
group.nodes.new(type=kind)
