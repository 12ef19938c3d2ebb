import bpy
wm = bpy.context.window_manager
wm.event_timer_add(0.5, window=bpy.context.window)
