import bpy
from mathutils import Vector
from mathutils.kdtree import KDTree

objs = [o for o in bpy.context.scene.objects if o.type == 'MESH']
tree = KDTree(len(objs))
for i, o in enumerate(objs):
    tree.insert(o.matrix_world.translation, i)
tree.balance()

probe = Vector((0.0, 0.0, 0.0))
print("nearest three to origin:")
for co, index, dist in tree.find_n(probe, 3):
    print(f"  {objs[index].name}: {dist:.3f}")

within = tree.find_range(probe, 5.0)
print(len(within), "objects within 5 m")
