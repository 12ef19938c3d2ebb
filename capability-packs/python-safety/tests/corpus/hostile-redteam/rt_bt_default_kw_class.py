import bpy
def run(*, op=bpy.types.WM_OT_context_toggle):
    return op
