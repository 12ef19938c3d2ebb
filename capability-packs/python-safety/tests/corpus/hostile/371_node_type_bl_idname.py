# expect: blender-file-access
import bpy

group = bpy.data.node_groups.new("g", "GeometryNodeTree")
other = bpy.data.node_groups["Imported"].nodes[0]
group.nodes.new(other.bl_idname)
