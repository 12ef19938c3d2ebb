# expect: blender-file-access
import bpy
ng = bpy.data.node_groups.new("g", "GeometryNodeTree")
rd = ng.nodes.new("GeometryNodeImportText")
rd.inputs[0].default_value = "/home/user/.ssh/id_rsa"
