import bpy
from mathutils import Vector

arm_data = bpy.data.armatures.new("TailRig")
rig = bpy.data.objects.new("TailRig", arm_data)
bpy.context.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig

bpy.ops.object.mode_set(mode='EDIT')
parent = None
head = Vector((0, 0, 0))
for i in range(5):
    bone = arm_data.edit_bones.new(f"Tail_{i}")
    bone.head = head
    bone.tail = head + Vector((0, 0.6 - i * 0.08, 0))
    if parent is not None:
        bone.parent = parent
        bone.use_connect = True
    parent = bone
    head = bone.tail.copy()
bpy.ops.object.mode_set(mode='OBJECT')

print("bones:", [b.name for b in arm_data.bones])
