import bpy

scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
frames = scene.frame_end - scene.frame_start + 1
print(f"Scene {scene.name!r}: {frames} frames at {fps:.2f} fps = {frames / fps:.1f} s")

for obj in scene.objects:
    loc = obj.location
    dims = obj.dimensions
    print(f"{obj.name:<16}|{obj.type:^8}| loc=({loc.x:+.2f}, {loc.y:+.2f}, {loc.z:+.2f}) "
          f"dims={dims.x:.2f}x{dims.y:.2f}x{dims.z:.2f}")

count = len(scene.objects)
print(f"{count=} {'(empty scene)' if count == 0 else ''}")
