import bpy

scene = bpy.context.scene
meshes = [o for o in scene.objects if o.type == 'MESH']
vert_counts = {o.name: len(o.data.vertices) for o in meshes}
material_names = {slot.material.name for o in meshes for slot in o.material_slots if slot.material}
heavy = sorted((n for n, c in vert_counts.items() if c > 1000), key=str.lower)

print("mesh objects:", len(meshes))
print("vertices per object:", vert_counts)
print("materials in use:", sorted(material_names))
print("heavy meshes:", heavy)
print("total vertices:", sum(vert_counts.values()))
