from bpy.utils import units as u
expr = "bpy.ops.wm.quit_blender()"
u.to_value("NONE", "NONE", expr)
