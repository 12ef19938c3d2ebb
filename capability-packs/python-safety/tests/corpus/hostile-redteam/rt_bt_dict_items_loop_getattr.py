import bpy
names = {'t': 'WM_OT_context_toggle'}
for k, v in names.items():
    op = getattr(bpy.types, v)
