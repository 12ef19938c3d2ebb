import bpy
import time
import textwrap
from datetime import datetime

start = time.perf_counter()
count = 0
for i in range(25):
    bpy.ops.mesh.primitive_cube_add(size=0.3, location=(i % 5, i // 5, 0))
    count += 1
elapsed = time.perf_counter() - start

note = (f"Built {count} cubes in {elapsed:.3f} seconds on {datetime.now():%Y-%m-%d %H:%M}. "
        "Each cube sits on a one metre grid so the layout can be checked quickly in the viewport.")
print(textwrap.fill(note, width=60))
