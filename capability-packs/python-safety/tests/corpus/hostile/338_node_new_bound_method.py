# expect: blender-value-escape
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
make = group.nodes.new
make("Shader" + "NodeScript")
