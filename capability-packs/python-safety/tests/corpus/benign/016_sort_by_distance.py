import bpy
from mathutils import Vector

origin = Vector((0.0, 0.0, 0.0))
objects = [o for o in bpy.context.scene.objects if o.type in {'MESH', 'EMPTY', 'LIGHT'}]
objects.sort(key=lambda o: (o.matrix_world.translation - origin).length)

for rank, obj in enumerate(objects, start=1):
    dist = (obj.matrix_world.translation - origin).length
    print(f"{rank:2d}. {obj.name:<20} {dist:7.2f} m")

if objects:
    nearest = objects[0]
    bpy.context.view_layer.objects.active = nearest
    nearest.select_set(True)
