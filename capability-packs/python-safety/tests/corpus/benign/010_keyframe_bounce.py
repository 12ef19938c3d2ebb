import bpy

bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0, 0, 0.5))
ball = bpy.context.active_object
ball.name = "Ball"

scene = bpy.context.scene
scene.frame_start = 1
scene.frame_end = 60

heights = [0.5, 3.0, 0.5, 1.8, 0.5, 0.9, 0.5]
for i, z in enumerate(heights):
    frame = 1 + i * 10
    ball.location.z = z
    ball.keyframe_insert(data_path="location", index=2, frame=frame)

for fc in ball.animation_data.action.fcurves:
    for kp in fc.keyframe_points:
        kp.interpolation = 'BEZIER'
        kp.easing = 'EASE_OUT'

print(f"{len(heights)} keys on {ball.name}")
