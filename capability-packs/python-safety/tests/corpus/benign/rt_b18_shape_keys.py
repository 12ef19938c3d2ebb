import bpy

bpy.ops.mesh.primitive_monkey_add(size=2, location=(0, 0, 1))
head = bpy.context.active_object
head.name = "Suzanne"
bpy.ops.object.shade_smooth()

basis = head.shape_key_add(name="Basis", from_mix=False)
squash = head.shape_key_add(name="Squash", from_mix=False)
for i, v in enumerate(head.data.vertices):
    co = basis.data[i].co
    squash.data[i].co = (co.x * 1.3, co.y * 1.3, co.z * 0.6)

stretch = head.shape_key_add(name="Stretch", from_mix=False)
for i, point in enumerate(stretch.data):
    co = basis.data[i].co
    point.co = (co.x * 0.8, co.y * 0.8, co.z * 1.5)

keys = head.data.shape_keys.key_blocks
frames = [(1, 0.0, 0.0), (10, 1.0, 0.0), (20, 0.0, 1.0), (30, 0.0, 0.0)]
for frame, sq, st in frames:
    keys["Squash"].value = sq
    keys["Stretch"].value = st
    keys["Squash"].keyframe_insert("value", frame=frame)
    keys["Stretch"].keyframe_insert("value", frame=frame)

bpy.context.scene.frame_end = 30
