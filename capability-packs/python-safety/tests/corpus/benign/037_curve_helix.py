import bpy
from math import cos, sin, pi

curve = bpy.data.curves.new("Helix", type='CURVE')
curve.dimensions = '3D'
curve.bevel_depth = 0.03
curve.bevel_resolution = 4

spline = curve.splines.new('POLY')
n = 200
spline.points.add(n - 1)
for i, point in enumerate(spline.points):
    t = i / (n - 1) * 6 * pi
    point.co = (cos(t), sin(t), t * 0.1, 1.0)

obj = bpy.data.objects.new("Helix", curve)
bpy.context.collection.objects.link(obj)
print("helix points:", len(spline.points))
