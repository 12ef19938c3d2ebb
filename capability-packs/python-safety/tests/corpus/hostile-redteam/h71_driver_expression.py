import bpy
fc = bpy.context.object.driver_add("location", 0)
fc.driver.type = "SCRIPTED"
fc.driver.expression = "frame"
