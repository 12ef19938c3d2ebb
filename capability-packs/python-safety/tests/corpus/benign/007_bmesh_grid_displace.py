import bpy
import bmesh
from mathutils import Vector, noise

mesh = bpy.data.meshes.new("Terrain")
obj = bpy.data.objects.new("Terrain", mesh)
bpy.context.collection.objects.link(obj)

bm = bmesh.new()
bmesh.ops.create_grid(bm, x_segments=48, y_segments=48, size=10.0)

for v in bm.verts:
    p = Vector((v.co.x * 0.3, v.co.y * 0.3, 0.0))
    v.co.z = noise.fractal(p, 0.8, 2.0, 5) * 1.5

bm.normal_update()
bm.to_mesh(mesh)
bm.free()

heights = [v.co.z for v in mesh.vertices]
print(f"terrain: {len(heights)} verts, min {min(heights):.2f}, max {max(heights):.2f}")
