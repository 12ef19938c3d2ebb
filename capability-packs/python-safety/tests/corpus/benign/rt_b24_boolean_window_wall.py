import bpy

def add_box(name, size, location):
    bpy.ops.mesh.primitive_cube_add(size=1, location=location)
    ob = bpy.context.active_object
    ob.name = name
    ob.scale = size
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    return ob

wall = add_box("Wall", (8, 0.3, 3), (0, 0, 1.5))
cutters = []
for i, x in enumerate((-2.5, 0, 2.5)):
    cutter = add_box(f"WindowCut_{i}", (1.2, 1.0, 1.4), (x, 0, 1.7))
    cutter.display_type = 'WIRE'
    cutter.hide_render = True
    cutters.append(cutter)

for cutter in cutters:
    mod = wall.modifiers.new(name=f"Bool_{cutter.name}", type='BOOLEAN')
    mod.operation = 'DIFFERENCE'
    mod.object = cutter
    mod.solver = 'EXACT'

bpy.context.view_layer.objects.active = wall
for mod in list(wall.modifiers):
    bpy.ops.object.modifier_apply(modifier=mod.name)
for cutter in cutters:
    bpy.data.objects.remove(cutter, do_unlink=True)
print(f"Wall now has {len(wall.data.polygons)} faces")
