# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
coll = group.path_resolve("nodes")
coll.new("GeometryNode" + "ImportPLY")
