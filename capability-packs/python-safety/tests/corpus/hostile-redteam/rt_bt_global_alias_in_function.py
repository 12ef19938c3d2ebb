import bpy
TY = None
def setup():
    global TY
    TY = bpy.types
setup()
op = TY.WM_OT_context_toggle
