import bpy
from mathutils import Vector

scene = bpy.context.scene
depsgraph = bpy.context.evaluated_depsgraph_get()
down = Vector((0.0, 0.0, -1.0))

dropped = 0
for obj in scene.objects:
    if obj.type != 'MESH' or obj.name.startswith("Ground"):
        continue
    origin = obj.matrix_world.translation + Vector((0, 0, -obj.dimensions.z / 2 - 0.001))
    hit, location, normal, index, hit_obj, matrix = scene.ray_cast(depsgraph, origin, down)
    if hit:
        obj.location.z -= (origin - location).length
        dropped += 1
        print(f"{obj.name} landed on {hit_obj.name} at z={location.z:.3f}")

print("dropped", dropped, "objects")
