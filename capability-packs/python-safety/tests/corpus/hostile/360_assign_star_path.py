# expect: blender-file-access
import bpy

obj = bpy.context.object
mod = obj.modifiers.new("Bake", "NODES")
mod.bake_path = "/tmp/bake"
