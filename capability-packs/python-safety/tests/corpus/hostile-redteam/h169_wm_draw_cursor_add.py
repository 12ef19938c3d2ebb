import bpy
bpy.types.WindowManager.draw_cursor_add(lambda *a: None, (), "VIEW_3D", "WINDOW")
