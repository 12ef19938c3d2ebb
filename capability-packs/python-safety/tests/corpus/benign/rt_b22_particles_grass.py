import bpy

bpy.ops.mesh.primitive_plane_add(size=10)
field_obj = bpy.context.active_object
field_obj.name = "Meadow"

bpy.ops.mesh.primitive_cone_add(vertices=4, radius1=0.02, depth=0.4, location=(0, 0, -5))
blade = bpy.context.active_object
blade.name = "GrassBlade"

green = bpy.data.materials.new("Grass")
green.diffuse_color = (0.15, 0.5, 0.1, 1)
blade.data.materials.append(green)

ps_mod = field_obj.modifiers.new("Grass", type='PARTICLE_SYSTEM')
psys = ps_mod.particle_system
settings = psys.settings
settings.type = 'HAIR'
settings.count = 5000
settings.hair_length = 0.4
settings.render_type = 'OBJECT'
settings.instance_object = blade
settings.use_rotations = True
settings.rotation_mode = 'NOR'
settings.phase_factor_random = 2.0
settings.particle_size = 1.0
settings.size_random = 0.5
psys.seed = 11

field_obj.show_instancer_for_render = True
print(f"{settings.count} grass blades on {field_obj.name}")
