import bpy
class M(type):
    def __instancecheck__(cls, o): return True
T = M("T", (), dict(__match_args__=("ti" + "mers",)))
match bpy.app:
    case T(t):
        t.register(lambda: 1.0, persistent=True)
