import bpy
ad = bpy.context.object.animation_data_create()
d = ad.drivers.new("rotation_euler", 2).driver
d.expression = "sin(frame)"
