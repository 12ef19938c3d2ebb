# expect: blender-code-execution
import bpy
obj = bpy.context.active_object
ad = obj.animation_data_create()
fc = ad.drivers.new("rotation_euler", index=2)
fc.driver.expression = "frame * 0.1"
