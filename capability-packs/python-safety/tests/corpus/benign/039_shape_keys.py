import bpy

bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0, segments=32, ring_count=16)
blob = bpy.context.active_object
blob.name = "Blob"

basis = blob.shape_key_add(name="Basis", from_mix=False)
squash = blob.shape_key_add(name="Squash", from_mix=False)
for point in squash.data:
    point.co.z *= 0.5
    point.co.x *= 1.3
    point.co.y *= 1.3

key = blob.data.shape_keys.key_blocks["Squash"]
for frame, value in ((1, 0.0), (12, 1.0), (24, 0.0)):
    key.value = value
    key.keyframe_insert(data_path="value", frame=frame)

print("shape keys:", [kb.name for kb in blob.data.shape_keys.key_blocks])
