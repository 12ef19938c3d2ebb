# expect: blender-code-execution
import bpy
obj = bpy.context.active_object
fc = obj.driver_add("location", 0)
fc.driver.type = 'SCRIPTED'
fc.driver.expression = "__import__('os').system('id') or 0"
