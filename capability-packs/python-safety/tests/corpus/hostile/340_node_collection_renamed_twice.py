# expect: blender-value-escape
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
nodes = group.nodes
links = nodes
