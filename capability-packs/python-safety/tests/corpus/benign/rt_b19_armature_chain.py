import bpy
from mathutils import Vector

arm_data = bpy.data.armatures.new("TentacleRig")
arm_obj = bpy.data.objects.new("TentacleRig", arm_data)
bpy.context.scene.collection.objects.link(arm_obj)
bpy.context.view_layer.objects.active = arm_obj

bpy.ops.object.mode_set(mode='EDIT')
segments = 8
length = 0.5
parent = None
for i in range(segments):
    bone = arm_data.edit_bones.new(f"seg_{i:02d}")
    bone.head = Vector((0, 0, i * length))
    bone.tail = Vector((0, 0, (i + 1) * length))
    if parent is not None:
        bone.parent = parent
        bone.use_connect = True
    parent = bone
bpy.ops.object.mode_set(mode='POSE')

for i, pb in enumerate(arm_obj.pose.bones):
    pb.rotation_mode = 'XYZ'
    for frame, angle in ((1, 0.0), (20, 0.15), (40, -0.15), (60, 0.0)):
        pb.rotation_euler.x = angle * (1 + i * 0.2)
        pb.keyframe_insert("rotation_euler", index=0, frame=frame)

bpy.ops.object.mode_set(mode='OBJECT')
print(f"Rig with {len(arm_data.bones)} bones")
