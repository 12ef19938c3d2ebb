# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
getattr(group.nodes, "new")("GeometryNode" + "ImportCSV")
