import bpy
m = bpy.context.object.modifiers.new("o", "OCEAN")
m.filepath = "/tmp/anywhere"
bpy.ops.object.ocean_bake(modifier="o")
