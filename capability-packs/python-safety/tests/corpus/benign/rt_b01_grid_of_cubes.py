import bpy
import random
import colorsys

random.seed(42)

# Clear existing mesh objects
bpy.ops.object.select_all(action='DESELECT')
for obj in list(bpy.data.objects):
    if obj.type == 'MESH':
        bpy.data.objects.remove(obj, do_unlink=True)

coll = bpy.data.collections.new("CubeGrid")
bpy.context.scene.collection.children.link(coll)

GRID = 6
SPACING = 2.5

for ix in range(GRID):
    for iy in range(GRID):
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=(ix * SPACING, iy * SPACING, 0))
        cube = bpy.context.active_object
        cube.name = f"Cube_{ix:02d}_{iy:02d}"
        height = random.uniform(0.5, 4.0)
        cube.scale.z = height
        cube.location.z = height / 2

        hue = (ix * GRID + iy) / (GRID * GRID)
        r, g, b = colorsys.hsv_to_rgb(hue, 0.7, 0.9)
        mat = bpy.data.materials.new(name=f"Mat_{cube.name}")
        mat.diffuse_color = (r, g, b, 1.0)
        cube.data.materials.append(mat)

        for c in cube.users_collection:
            c.objects.unlink(cube)
        coll.objects.link(cube)

print(f"Created {GRID * GRID} cubes in collection {coll.name!r}")
