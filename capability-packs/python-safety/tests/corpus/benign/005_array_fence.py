import bpy

bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, 0.5))
post = bpy.context.active_object
post.name = "FencePost"
post.scale = (0.1, 0.1, 1.0)

array = post.modifiers.new(name="Posts", type='ARRAY')
array.count = 12
array.use_relative_offset = False
array.use_constant_offset = True
array.constant_offset_displace = (0.8, 0.0, 0.0)

bpy.ops.mesh.primitive_cube_add(size=1.0, location=(4.4, 0, 0.8))
rail = bpy.context.active_object
rail.name = "FenceRail"
rail.scale = (4.6, 0.04, 0.05)

print("fence length:", array.count * array.constant_offset_displace[0])
