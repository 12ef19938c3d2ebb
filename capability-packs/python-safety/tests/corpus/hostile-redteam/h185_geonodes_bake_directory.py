import bpy
mod = bpy.context.object.modifiers.new("g", "NODES")
mod.bake_directory = "/home/user/.config/autostart"
bpy.ops.object.geometry_node_bake_single(session_uid=0, modifier_name="g", bake_id=0)
