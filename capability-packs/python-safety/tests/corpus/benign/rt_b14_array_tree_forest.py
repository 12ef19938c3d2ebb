import bpy
import random
from math import radians, pi

rng = random.Random(1234)

def make_tree(name, location, trunk_h, crown_r):
    bpy.ops.mesh.primitive_cylinder_add(radius=0.15, depth=trunk_h,
                                        location=(location[0], location[1], trunk_h / 2))
    trunk = bpy.context.active_object
    trunk.name = f"{name}_trunk"
    bpy.ops.mesh.primitive_cone_add(radius1=crown_r, depth=crown_r * 2.5,
                                    location=(location[0], location[1], trunk_h + crown_r))
    crown = bpy.context.active_object
    crown.name = f"{name}_crown"
    crown.rotation_euler.z = rng.uniform(0, 2 * pi)
    crown.parent = trunk
    crown.matrix_parent_inverse = trunk.matrix_world.inverted()
    return trunk, crown

bark = bpy.data.materials.new("Bark"); bark.diffuse_color = (0.25, 0.15, 0.08, 1)
leaves = bpy.data.materials.new("Leaves"); leaves.diffuse_color = (0.1, 0.4, 0.12, 1)

forest = bpy.data.collections.new("Forest")
bpy.context.scene.collection.children.link(forest)

for i in range(30):
    loc = (rng.gauss(0, 8), rng.gauss(0, 8))
    trunk, crown = make_tree(f"Tree{i:02d}", loc, rng.uniform(1.0, 2.5), rng.uniform(0.6, 1.4))
    trunk.data.materials.append(bark)
    crown.data.materials.append(leaves)
    trunk.rotation_euler.x = radians(rng.uniform(-4, 4))
    for ob in (trunk, crown):
        for c in ob.users_collection:
            c.objects.unlink(ob)
        forest.objects.link(ob)
