import bpy_extras
op = bpy_extras.anim_utils.bpy.types.WM_OT_context_toggle
