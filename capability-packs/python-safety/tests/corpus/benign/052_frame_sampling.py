import bpy

scene = bpy.context.scene
obj = bpy.context.active_object
samples = []

if obj is not None:
    original = scene.frame_current
    for frame in range(scene.frame_start, scene.frame_end + 1, 10):
        scene.frame_set(frame)
        samples.append((frame, obj.matrix_world.translation.copy()))
    scene.frame_set(original)

    for frame, pos in samples:
        print(f"frame {frame:4d}: ({pos.x:.2f}, {pos.y:.2f}, {pos.z:.2f})")
    if len(samples) > 1:
        travelled = sum((b[1] - a[1]).length for a, b in zip(samples, samples[1:]))
        print(f"approx. path length: {travelled:.2f}")
