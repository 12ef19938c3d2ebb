# expect: dunder-attribute
import bpy
as_mod = bpy.types.Text.__dict__["as_" + "module"]
