import bpy

bpy.ops.mesh.primitive_plane_add(size=3)
lawn = bpy.context.active_object
lawn.name = "Lawn"

mod = lawn.modifiers.new("Grass", type='PARTICLE_SYSTEM')
psys = mod.particle_system
settings = psys.settings
settings.type = 'HAIR'
settings.count = 2000
settings.hair_length = 0.15
settings.use_advanced_hair = True
settings.child_type = 'INTERPOLATED'
settings.rendered_child_count = 20
settings.display_step = 3

psys.seed = 7
print(f"{lawn.name}: {settings.count} strands, length {settings.hair_length}")
