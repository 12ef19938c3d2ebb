import bpy
import math
import random
from mathutils import noise, Vector

SIZE = 40
SCALE = 0.5
random.seed(3)

verts = []
faces = []
for y in range(SIZE):
    for x in range(SIZE):
        p = Vector((x * SCALE, y * SCALE, 0))
        h = noise.fractal(p * 0.15, 1.0, 2.0, 5) * 2.0
        h += 0.3 * math.sin(x * 0.3) * math.cos(y * 0.2)
        verts.append((p.x, p.y, h))

for y in range(SIZE - 1):
    for x in range(SIZE - 1):
        i = y * SIZE + x
        faces.append((i, i + 1, i + SIZE + 1, i + SIZE))

mesh = bpy.data.meshes.new("Terrain")
mesh.from_pydata(verts, [], faces)
mesh.update()
for poly in mesh.polygons:
    poly.use_smooth = True

terrain = bpy.data.objects.new("Terrain", mesh)
bpy.context.scene.collection.objects.link(terrain)
terrain.location = (-SIZE * SCALE / 2, -SIZE * SCALE / 2, 0)

heights = [v.co.z for v in mesh.vertices]
print(f"Terrain height range: {min(heights):.2f} .. {max(heights):.2f}")
