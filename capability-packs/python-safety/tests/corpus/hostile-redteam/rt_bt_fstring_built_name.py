import bpy
kind = 'context_toggle'
op = getattr(bpy.types, f'WM_OT_{kind}')
