import bpy

palette = [
    (0.90, 0.30, 0.25),
    (0.95, 0.75, 0.20),
    (0.30, 0.70, 0.40),
    (0.20, 0.45, 0.85),
]
labels = ["warm", "sun", "leaf", "sky"]

meshes = [o for o in bpy.context.scene.objects if o.type == 'MESH']
for index, (obj, rgb, label) in enumerate(zip(meshes, palette, labels)):
    mat = bpy.data.materials.get(f"Palette_{label}") or bpy.data.materials.new(f"Palette_{label}")
    mat.diffuse_color = (*rgb, 1.0)
    obj.active_material = mat
    print(index, obj.name, label, rgb)

unpainted = meshes[len(palette):]
if unpainted:
    print("no colour left for:", ", ".join(o.name for o in unpainted))
