# expect: dangerous-builtin
import bpy
m = vars(bpy.types.Text)["as_" + "module"]
