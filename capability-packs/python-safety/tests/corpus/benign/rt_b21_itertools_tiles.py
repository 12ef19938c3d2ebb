import bpy
import itertools
from functools import lru_cache
import math

palette = [
    (0.90, 0.30, 0.25, 1.0),
    (0.95, 0.75, 0.20, 1.0),
    (0.20, 0.55, 0.80, 1.0),
    (0.25, 0.70, 0.40, 1.0),
]

@lru_cache(maxsize=None)
def tile_material(index: int):
    mat = bpy.data.materials.new(f"Tile_{index}")
    mat.diffuse_color = palette[index % len(palette)]
    return mat

colors = itertools.cycle(range(len(palette)))
size = 0.95
for (ix, iy), c in zip(itertools.product(range(10), range(10)), colors):
    if (ix + iy) % 3 == 0:
        continue
    z = 0.1 * math.sin(ix * 0.7) * math.cos(iy * 0.7)
    bpy.ops.mesh.primitive_plane_add(size=size, location=(ix, iy, z))
    tile = bpy.context.active_object
    tile.name = f"Tile_{ix}_{iy}"
    tile.data.materials.append(tile_material(c))

print("materials used:", tile_material.cache_info().currsize)
