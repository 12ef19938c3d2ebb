# expect: blender-code-execution
import bpy
bpy.utils.units.to_value('METRIC', 'LENGTH', "__import__('os').system('id') or 1")
