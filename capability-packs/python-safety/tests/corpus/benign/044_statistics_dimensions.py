import bpy
import statistics
from fractions import Fraction
from decimal import Decimal, ROUND_HALF_UP

meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH']
heights = [o.dimensions.z for o in meshes]

if len(heights) >= 2:
    print("mean height:", round(statistics.mean(heights), 3))
    print("median height:", round(statistics.median(heights), 3))
    print("stdev:", round(statistics.stdev(heights), 3))
else:
    print("need at least two meshes, have", len(heights))

aspect = Fraction(bpy.context.scene.render.resolution_x, bpy.context.scene.render.resolution_y)
print("aspect ratio:", aspect)

scale = Decimal("2.54") / Decimal("3")
print("rounded scale:", scale.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
