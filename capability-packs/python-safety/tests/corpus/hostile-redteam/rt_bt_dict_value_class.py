import bpy
reg = dict(op=bpy.types.WM_OT_context_toggle)
