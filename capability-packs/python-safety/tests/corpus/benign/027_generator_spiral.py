import bpy
from math import cos, sin, tau


def spiral(turns, points_per_turn, radius_step, rise):
    total = turns * points_per_turn
    for i in range(total):
        angle = tau * i / points_per_turn
        r = 0.5 + radius_step * i
        yield r * cos(angle), r * sin(angle), rise * i


points = list(spiral(turns=3, points_per_turn=12, radius_step=0.05, rise=0.08))
for i, co in enumerate(points):
    empty = bpy.data.objects.new(f"Spiral_{i:02d}", None)
    empty.empty_display_type = 'SPHERE'
    empty.empty_display_size = 0.1
    empty.location = co
    bpy.context.collection.objects.link(empty)

gen = spiral(1, 4, 0.0, 0.0)
print("first point:", next(gen))
print("placed", len(points), "markers")
