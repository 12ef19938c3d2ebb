import bpy
from itertools import product, islice, cycle

shapes = cycle(["cube", "sphere", "cone"])
positions = product(range(-2, 3), range(-2, 3))

for (x, y), shape in islice(zip(positions, shapes), 20):
    loc = (x * 2.0, y * 2.0, 0.5)
    if shape == "cube":
        bpy.ops.mesh.primitive_cube_add(size=0.8, location=loc)
    elif shape == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.45, location=loc)
    else:
        bpy.ops.mesh.primitive_cone_add(radius1=0.45, depth=0.9, location=loc)

print("grid built:", len(bpy.context.scene.objects), "objects in scene")
