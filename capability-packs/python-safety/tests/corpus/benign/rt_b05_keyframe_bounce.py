import bpy
import math

scene = bpy.context.scene
scene.frame_start = 1
scene.frame_end = 120

bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0, 0, 0.5))
ball = bpy.context.active_object
ball.name = "BouncingBall"

bounces = 4
frames_per_bounce = 30
max_height = 4.0

for b in range(bounces):
    start = 1 + b * frames_per_bounce
    peak = start + frames_per_bounce // 2
    height = max_height * (0.6 ** b)

    ball.location = (b * 1.5, 0, 0.5)
    ball.keyframe_insert(data_path="location", frame=start)
    ball.location = (b * 1.5 + 0.75, 0, 0.5 + height)
    ball.keyframe_insert(data_path="location", frame=peak)

ball.location = (bounces * 1.5, 0, 0.5)
ball.keyframe_insert(data_path="location", frame=1 + bounces * frames_per_bounce)

action = ball.animation_data.action
for fc in action.fcurves:
    if fc.data_path == "location" and fc.array_index == 2:
        for kp in fc.keyframe_points:
            kp.interpolation = 'QUAD'
            kp.easing = 'EASE_OUT' if kp.co.y > 0.6 else 'EASE_IN'
print("keyframes:", sum(len(fc.keyframe_points) for fc in action.fcurves))
