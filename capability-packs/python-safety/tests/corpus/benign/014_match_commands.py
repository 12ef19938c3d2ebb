import bpy

commands = [
    {"op": "add", "shape": "cube", "at": (0, 0, 0)},
    {"op": "add", "shape": "sphere", "at": (3, 0, 0)},
    {"op": "color", "name": "Cube", "rgb": (0.2, 0.6, 1.0)},
    ("scale", "Sphere", 2.0),
    "clear-selection",
]

for cmd in commands:
    match cmd:
        case {"op": "add", "shape": "cube", "at": loc}:
            bpy.ops.mesh.primitive_cube_add(location=loc)
        case {"op": "add", "shape": "sphere", "at": loc}:
            bpy.ops.mesh.primitive_uv_sphere_add(location=loc)
        case {"op": "color", "name": name, "rgb": (r, g, b)}:
            obj = bpy.data.objects.get(name)
            if obj is not None:
                obj.color = (r, g, b, 1.0)
        case ("scale", name, factor):
            obj = bpy.data.objects.get(name)
            if obj:
                obj.scale = (factor, factor, factor)
        case "clear-selection":
            for obj in bpy.context.selected_objects:
                obj.select_set(False)
        case _:
            print("unknown command", cmd)

print("objects:", [o.name for o in bpy.data.objects])
