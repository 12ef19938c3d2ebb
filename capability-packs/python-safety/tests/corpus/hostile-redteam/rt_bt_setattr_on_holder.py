import bpy
class H: pass
setattr(H, 'op', bpy.types.WM_OT_context_toggle)
