# Sort the scene's objects by the kind of data they carry, with isinstance checks on
# Blender's data types.
import bpy

bpy.ops.mesh.primitive_cube_add(location=(0, 0, 0))
bpy.ops.object.light_add(type="POINT", location=(2, 2, 3))
bpy.ops.object.camera_add(location=(5, -5, 3))

kinds = {"mesh": [], "light": [], "camera": [], "other": []}
for obj in bpy.context.scene.objects:
    data = obj.data
    if isinstance(data, bpy.types.Mesh):
        kinds["mesh"].append(obj.name)
    elif isinstance(data, bpy.types.Light):
        kinds["light"].append(obj.name)
    elif isinstance(data, bpy.types.Camera):
        kinds["camera"].append(obj.name)
    else:
        kinds["other"].append(obj.name)
result = {k: sorted(v) for k, v in kinds.items()}
