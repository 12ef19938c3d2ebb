import bpy
import math
import time
from typing import Iterator, Tuple

def phyllotaxis(n: int, c: float = 0.35) -> Iterator[Tuple[float, float, float]]:
    golden = math.pi * (3 - math.sqrt(5))
    for i in range(n):
        r = c * math.sqrt(i)
        theta = i * golden
        yield (r * math.cos(theta), r * math.sin(theta), 0.02 * i ** 0.5)

start = time.perf_counter()
mesh = bpy.data.meshes.new("Seed")
bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, radius=0.12)
template = bpy.context.active_object
template.name = "SeedTemplate"

head = bpy.data.collections.new("SunflowerHead")
bpy.context.scene.collection.children.link(head)
for i, pos in enumerate(phyllotaxis(600)):
    ob = template.copy()
    ob.location = pos
    ob.name = f"Seed_{i:04d}"
    head.objects.link(ob)

bpy.data.objects.remove(template, do_unlink=True)
print(f"built {len(head.objects)} seeds in {time.perf_counter() - start:.2f}s")
