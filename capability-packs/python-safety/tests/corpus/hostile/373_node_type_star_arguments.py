# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
args = ["GeometryNode" + "ImportVDB"]
group.nodes.new(*args)
