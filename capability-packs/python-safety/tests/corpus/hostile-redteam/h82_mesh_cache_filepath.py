import bpy
mod = bpy.context.object.modifiers.new("c", "MESH_CACHE")
mod.filepath = "/etc/passwd"
