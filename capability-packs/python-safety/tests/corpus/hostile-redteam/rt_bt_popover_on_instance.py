import bpy
bpy.context.window_manager.popover(lambda self, ctx: None)
