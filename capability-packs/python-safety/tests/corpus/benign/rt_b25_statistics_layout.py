import bpy
import statistics
import random
from fractions import Fraction
from typing import NamedTuple

class Sample(NamedTuple):
    label: str
    value: float

rng = random.Random(99)
samples = [Sample(f"Q{i + 1}", rng.uniform(10, 100)) for i in range(8)]
mean = statistics.mean(s.value for s in samples)
stdev = statistics.stdev(s.value for s in samples)
aspect = Fraction(16, 9)

bar_mat = bpy.data.materials.new("Bar")
bar_mat.diffuse_color = (0.2, 0.45, 0.85, 1)
hi_mat = bpy.data.materials.new("BarHigh")
hi_mat.diffuse_color = (0.9, 0.35, 0.2, 1)

for i, s in enumerate(samples):
    h = s.value / 20
    bpy.ops.mesh.primitive_cube_add(size=1, location=(i * 1.4, 0, h / 2))
    bar = bpy.context.active_object
    bar.scale = (1, 1, h)
    bar.name = f"Bar_{s.label}"
    bar.data.materials.append(hi_mat if s.value > mean + stdev / 2 else bar_mat)

scene = bpy.context.scene
scene.render.resolution_x = 1920
scene.render.resolution_y = int(1920 / aspect)
print("mean={:.1f} stdev={:.1f}".format(mean, stdev))
