import bpy

scene = bpy.context.scene
groups = {'MESH': "Geometry", 'LIGHT': "Lights", 'CAMERA': "Cameras", 'EMPTY': "Helpers"}

for coll_name in groups.values():
    if coll_name not in bpy.data.collections:
        coll = bpy.data.collections.new(coll_name)
        scene.collection.children.link(coll)

moved = 0
for obj in list(scene.objects):
    target_name = groups.get(obj.type)
    if target_name is None:
        continue
    target = bpy.data.collections[target_name]
    if obj.name in target.objects:
        continue
    for old in obj.users_collection:
        old.objects.unlink(obj)
    target.objects.link(obj)
    moved += 1

print(f"moved {moved} objects")
for name in groups.values():
    print(name, len(bpy.data.collections[name].objects))
