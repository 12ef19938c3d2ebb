import bpy

bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 1))
base = bpy.context.active_object
base.name = "PanelBase"

bevel = base.modifiers.new(name="Bevel", type='BEVEL')
bevel.width = 0.05
bevel.segments = 3
bevel.limit_method = 'ANGLE'

array = base.modifiers.new(name="ArrayX", type='ARRAY')
array.count = 5
array.relative_offset_displace = (1.1, 0, 0)

array_y = base.modifiers.new(name="ArrayY", type='ARRAY')
array_y.count = 3
array_y.relative_offset_displace = (0, 1.1, 0)

solid = base.modifiers.new(name="Solidify", type='SOLIDIFY')
solid.thickness = 0.02

sub = base.modifiers.new(name="Subdivision", type='SUBSURF')
sub.levels = 1
sub.render_levels = 2

wn = base.modifiers.new(name="WeightedNormal", type='WEIGHTED_NORMAL')
wn.keep_sharp = True

for mod in base.modifiers:
    print(f"{mod.name:<16} {mod.type}")

bpy.context.view_layer.objects.active = base
bpy.ops.object.modifier_apply(modifier="Bevel")
