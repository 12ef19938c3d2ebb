import bpy

HEADER = "{:<20} {:>8} {:>8} {:>8}"
ROW = "{:<20} {:>8d} {:>8d} {:>8d}"

print(HEADER.format("object", "verts", "edges", "faces"))
print("-" * 47)
totals = [0, 0, 0]
for obj in bpy.context.scene.objects:
    if obj.type != 'MESH':
        continue
    me = obj.data
    counts = (len(me.vertices), len(me.edges), len(me.polygons))
    totals = [t + c for t, c in zip(totals, counts)]
    print(ROW.format(obj.name, *counts))
print("-" * 47)
print(ROW.format("total", *totals))
