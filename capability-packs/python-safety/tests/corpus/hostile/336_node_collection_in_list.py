# expect: blender-value-escape
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
coll = [group.nodes][0]
coll.new("GeometryNode" + "ImportText")
