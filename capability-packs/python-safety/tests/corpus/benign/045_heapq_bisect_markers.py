import bpy
import heapq
import bisect

scene = bpy.context.scene
meshes = [o for o in scene.objects if o.type == 'MESH']
biggest = heapq.nlargest(3, meshes, key=lambda o: len(o.data.polygons))
print("heaviest meshes:", [(o.name, len(o.data.polygons)) for o in biggest])

for name, frame in (("Intro", 1), ("Action", 48), ("Climax", 96), ("Outro", 150)):
    if name not in scene.timeline_markers:
        scene.timeline_markers.new(name, frame=frame)

frames = sorted(m.frame for m in scene.timeline_markers)
names = {m.frame: m.name for m in scene.timeline_markers}
current = scene.frame_current
i = bisect.bisect_right(frames, current) - 1
section = names[frames[i]] if i >= 0 else "before first marker"
print(f"frame {current} is in section: {section}")
