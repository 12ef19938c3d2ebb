# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
group.nodes.new("GeometryNodeImportUSD")
