import bpy
from math import radians

pivot = bpy.data.objects.new("OrbitPivot", None)
bpy.context.collection.objects.link(pivot)

moons = []
for i, dist in enumerate((2.0, 3.5, 5.0)):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.2 + 0.1 * i, location=(dist, 0, 0))
    moon = bpy.context.active_object
    moon.name = f"Moon_{i}"
    moon.parent = pivot
    moons.append(moon)

pivot.rotation_euler.z = 0.0
pivot.keyframe_insert(data_path="rotation_euler", index=2, frame=1)
pivot.rotation_euler.z = radians(360)
pivot.keyframe_insert(data_path="rotation_euler", index=2, frame=240)
for kp in pivot.animation_data.action.fcurves[0].keyframe_points:
    kp.interpolation = 'LINEAR'

print("children of pivot:", [c.name for c in pivot.children])
