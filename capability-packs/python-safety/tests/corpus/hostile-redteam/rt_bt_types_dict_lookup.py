import bpy
op = bpy.types.__dict__['WM_OT_context_toggle']
