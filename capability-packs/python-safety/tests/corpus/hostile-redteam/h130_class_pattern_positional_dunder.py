import bpy
match bpy.ops:
    case object(wm=w):
        w.quit_blender()
