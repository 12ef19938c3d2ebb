import bpy
op = bpy.types.WM_OT_context_toggle
