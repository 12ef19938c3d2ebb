import bpy
import math
from array import array

bpy.ops.mesh.primitive_grid_add(x_subdivisions=80, y_subdivisions=80, size=8)
grid = bpy.context.active_object
grid.name = "WaveGrid"
mesh = grid.data

count = len(mesh.vertices)
coords = array('f', [0.0]) * (count * 3)
mesh.vertices.foreach_get("co", coords)

for i in range(count):
    x = coords[i * 3]
    y = coords[i * 3 + 1]
    r = math.hypot(x, y)
    coords[i * 3 + 2] = 0.3 * math.sin(r * 3.0) / (1.0 + r)

mesh.vertices.foreach_set("co", coords)
mesh.update()

bpy.ops.object.shade_smooth()
water = bpy.data.materials.new("Water")
water.use_nodes = True
bsdf = water.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (0.05, 0.25, 0.4, 1)
bsdf.inputs["Roughness"].default_value = 0.05
bsdf.inputs["Transmission Weight"].default_value = 0.9
mesh.materials.append(water)
