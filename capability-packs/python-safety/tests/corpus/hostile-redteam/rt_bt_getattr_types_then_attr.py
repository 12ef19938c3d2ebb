import bpy
op = getattr(bpy, 'types').WM_OT_context_toggle
