class M(type):
    def __instancecheck__(cls, o): return True
F = M("F", (), dict(__match_args__=("gi_frame",)))
B = M("B", (), dict(__match_args__=("f_builtins",)))
def g(): yield 1
match g():
    case F(B(b)):
        b["print"]("got frame builtins")
