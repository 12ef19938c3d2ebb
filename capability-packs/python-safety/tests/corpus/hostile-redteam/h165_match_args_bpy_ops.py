import bpy
class M(type):
    def __instancecheck__(cls, o): return True
class W(metaclass=M):
    __match_args__ = ("w" + "m",)
match bpy.ops:
    case W(w): w.quit_blender()
