import bpy
import heapq
import bisect
from mathutils import Vector

def nearest(objs, point, k=3):
    p = Vector(point)
    return heapq.nsmallest(k, objs, key=lambda o: (o.location - p).length)

meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH']
origin_neighbours = nearest(meshes, (0, 0, 0))
for o in origin_neighbours:
    o.color = (1.0, 0.2, 0.2, 1.0)

# Assign LOD level by distance thresholds
thresholds = [5.0, 15.0, 40.0]
for o in meshes:
    d = o.location.length
    lod = bisect.bisect_left(thresholds, d)
    o["lod"] = lod
    for mod in o.modifiers:
        if mod.type == 'SUBSURF':
            mod.levels = max(0, 2 - lod)

print("closest to origin:", ", ".join(o.name for o in origin_neighbours))
