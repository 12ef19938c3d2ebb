import bpy
m = bpy.context.object.modifiers.new("f", "FLUID")
m.fluid_type = "DOMAIN"
m.domain_settings.cache_directory = "/home/user/.config/autostart"
