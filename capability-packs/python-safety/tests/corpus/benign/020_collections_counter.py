import bpy
from collections import Counter, defaultdict, namedtuple

Summary = namedtuple("Summary", "name type verts")

by_type = Counter(o.type for o in bpy.data.objects)
by_collection = defaultdict(list)
for coll in bpy.data.collections:
    for obj in coll.objects:
        by_collection[coll.name].append(obj.name)

summaries = [
    Summary(o.name, o.type, len(o.data.vertices) if o.type == 'MESH' else 0)
    for o in bpy.data.objects
]

print("by type:", dict(by_type))
print("most common:", by_type.most_common(2))
for name, members in by_collection.items():
    print(f"{name}: {', '.join(members)}")
for s in summaries:
    print(s)
