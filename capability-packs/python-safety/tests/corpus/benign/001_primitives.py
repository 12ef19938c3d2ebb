import bpy

bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 1.0))
cube = bpy.context.active_object
cube.name = "Hero"
cube.scale = (1.0, 1.0, 0.5)
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(2.0, 0.0, 0.5))
