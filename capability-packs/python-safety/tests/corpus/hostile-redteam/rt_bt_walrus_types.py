import bpy
if (t := bpy.types):
    t.WM_OT_context_toggle
