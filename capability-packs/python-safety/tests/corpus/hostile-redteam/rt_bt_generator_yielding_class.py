import bpy
def gen():
    yield bpy.types.WM_OT_context_toggle
for c in gen():
    c.execute(object(), bpy.context)
