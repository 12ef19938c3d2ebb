import bpy

bpy.ops.object.camera_add(location=(0, -8, 2))
cam = bpy.context.active_object
cam.rotation_euler = (1.45, 0.0, 0.0)

for frame in (1, 120):
    cam.keyframe_insert(data_path="rotation_euler", frame=frame)

action = cam.animation_data.action
for fc in action.fcurves:
    if fc.data_path == "rotation_euler":
        mod = fc.modifiers.new(type='NOISE')
        mod.scale = 20.0
        mod.strength = 0.02
        mod.phase = fc.array_index * 13.0
        print("shake on axis", fc.array_index)
