import bpy
menu = bpy.types.RENDER_MT_format_presets
menu.draw_preset(None, bpy.context)
