import bpy
get = lambda: bpy.types.WM_OT_context_set_value
get().execute(object(), bpy.context)
