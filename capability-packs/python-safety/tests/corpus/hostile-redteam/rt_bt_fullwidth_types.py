import bpy
op = bpy.ｔypes.WM_OT_context_toggle
