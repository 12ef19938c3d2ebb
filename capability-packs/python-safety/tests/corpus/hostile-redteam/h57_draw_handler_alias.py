import bpy
sv = bpy.types.SpaceView3D
sv.draw_handler_add(lambda: None, (), "WINDOW", "POST_PIXEL")
