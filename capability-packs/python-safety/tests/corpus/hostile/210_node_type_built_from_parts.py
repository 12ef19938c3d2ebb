# expect: blender-file-access
import bpy
ng = bpy.data.node_groups.new("g", "GeometryNodeTree")
kind = "GeometryNode" + "Import" + "Text"
rd = ng.nodes.new(kind)
