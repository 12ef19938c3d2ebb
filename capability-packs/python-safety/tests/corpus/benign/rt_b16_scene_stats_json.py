import bpy
import json
from collections import Counter, defaultdict

scene = bpy.context.scene
type_counts = Counter(obj.type for obj in scene.objects)
materials_by_object = defaultdict(list)
total_verts = 0

depsgraph = bpy.context.evaluated_depsgraph_get()
for obj in scene.objects:
    if obj.type == 'MESH':
        eval_obj = obj.evaluated_get(depsgraph)
        mesh = eval_obj.to_mesh()
        total_verts += len(mesh.vertices)
        eval_obj.to_mesh_clear()
    for slot in getattr(obj, "material_slots", []):
        if slot.material:
            materials_by_object[obj.name].append(slot.material.name)

summary = {
    "scene": scene.name,
    "frame_range": [scene.frame_start, scene.frame_end],
    "objects": dict(type_counts),
    "evaluated_vertices": total_verts,
    "materials": dict(materials_by_object),
}
print(json.dumps(summary, indent=2, sort_keys=True))
