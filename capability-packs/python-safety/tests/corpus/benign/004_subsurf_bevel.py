import bpy

bpy.ops.mesh.primitive_cube_add(size=1.5, location=(0, 0, 0.75))
obj = bpy.context.active_object
obj.name = "RoundedBlock"

bevel = obj.modifiers.new(name="Bevel", type='BEVEL')
bevel.width = 0.08
bevel.segments = 3
bevel.limit_method = 'ANGLE'

subsurf = obj.modifiers.new(name="Subdivision", type='SUBSURF')
subsurf.levels = 2
subsurf.render_levels = 3

bpy.ops.object.shade_smooth()

for mod in obj.modifiers:
    print(mod.name, mod.type)
