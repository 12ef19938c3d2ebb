# expect: blender-python-class
import bpy
p = bpy.types.CYCLES_RENDER_PT_sampling
