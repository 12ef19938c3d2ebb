import bpy
import re
from mathutils import Vector

pattern = re.compile(r"^(Cube|Sphere)[._]?\d*$", re.IGNORECASE)

def objects_matching(regex):
    return [o for o in bpy.context.scene.objects if regex.match(o.name)]

def center_of(objs):
    if not objs:
        return Vector()
    total = sum((o.matrix_world.translation for o in objs), Vector())
    return total / len(objs)

bpy.ops.object.select_all(action='DESELECT')
matches = objects_matching(pattern)
for o in matches:
    o.select_set(True)
if matches:
    bpy.context.view_layer.objects.active = matches[0]

center = center_of(matches)
bpy.context.scene.cursor.location = center

empty = bpy.data.objects.new("GroupCenter", None)
empty.location = center
bpy.context.scene.collection.objects.link(empty)
for o in matches:
    o.parent = empty
    o.matrix_parent_inverse = empty.matrix_world.inverted()

print(f"Grouped {len(matches)} objects around {tuple(round(c, 2) for c in center)}")
