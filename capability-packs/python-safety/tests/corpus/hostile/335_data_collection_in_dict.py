# expect: blender-value-escape
import bpy

D = bpy.data
holder = {"t": D.texts}
