# expect: blender-value-escape
import bpy


def add(collection, kind):
    return collection.new(kind)


group = bpy.data.node_groups.new("g", "GeometryNodeTree")
add(group.nodes, "GeometryNode" + "ImportCSV")
