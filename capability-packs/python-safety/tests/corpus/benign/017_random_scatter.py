import bpy
import random
import colorsys

rng = random.Random(1234)
count = 40
for i in range(count):
    x = rng.uniform(-10, 10)
    y = rng.uniform(-10, 10)
    s = rng.uniform(0.2, 0.8)
    bpy.ops.mesh.primitive_ico_sphere_add(radius=s, location=(x, y, s), subdivisions=2)
    rock = bpy.context.active_object
    rock.name = f"Rock_{i:03d}"
    rock.rotation_euler = (rng.random(), rng.random(), rng.random() * 6.283)
    h = 0.08 + rng.random() * 0.05
    r, g, b = colorsys.hsv_to_rgb(h, 0.3, rng.uniform(0.3, 0.6))
    rock.color = (r, g, b, 1.0)

print(f"scattered {count} rocks")
