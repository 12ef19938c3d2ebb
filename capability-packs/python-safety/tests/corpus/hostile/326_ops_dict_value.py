# expect: blender-value-escape
import bpy

table = {"r": bpy.ops.render.render}
table["r"](write_still=True)
