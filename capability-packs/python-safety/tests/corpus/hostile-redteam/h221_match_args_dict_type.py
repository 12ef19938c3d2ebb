import bpy
class M(type):
    def __instancecheck__(cls, o): return True
W = M("W", (), {"__match_args__": ("wm",)})
match bpy.ops:
    case W(w):
        w.quit_blender()
