# expect: blender-python-class
import bpy
op = bpy.types.ＷＭ_OT_context_toggle
