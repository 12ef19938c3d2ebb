# expect: blender-value-escape
import bpy


class Holder:
    pass


group = bpy.data.node_groups.new("g", "GeometryNodeTree")
h = Holder()
h.links = group.nodes
