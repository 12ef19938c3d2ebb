import bpy
import math

curve_data = bpy.data.curves.new("PipePath", type='CURVE')
curve_data.dimensions = '3D'
curve_data.resolution_u = 24
curve_data.bevel_depth = 0.12
curve_data.bevel_resolution = 6
curve_data.use_fill_caps = True

spline = curve_data.splines.new('BEZIER')
points = [(math.cos(t) * 3, math.sin(t) * 3, t * 0.4) for t in (i * 0.5 for i in range(16))]
spline.bezier_points.add(len(points) - 1)
for bp, co in zip(spline.bezier_points, points):
    bp.co = co
    bp.handle_left_type = 'AUTO'
    bp.handle_right_type = 'AUTO'

pipe = bpy.data.objects.new("Pipe", curve_data)
bpy.context.scene.collection.objects.link(pipe)

copper = bpy.data.materials.new("Copper")
copper.use_nodes = True
p = copper.node_tree.nodes["Principled BSDF"]
p.inputs["Base Color"].default_value = (0.95, 0.64, 0.54, 1)
p.inputs["Metallic"].default_value = 1.0
p.inputs["Roughness"].default_value = 0.3
pipe.data.materials.append(copper)
