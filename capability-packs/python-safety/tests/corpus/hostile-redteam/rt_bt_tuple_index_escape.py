import bpy
op = (bpy.types,)[0].WM_OT_context_toggle
