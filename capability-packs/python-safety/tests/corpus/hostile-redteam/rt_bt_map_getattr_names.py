import bpy
ops = list(map(lambda n: getattr(bpy.types, n), ['WM_OT_context_toggle']))
