class M(type):
    def __instancecheck__(cls, o): return True
class F(metaclass=M):
    __match_args__ = ("gi" + "_frame",)
def g(): yield 1
match g():
    case F(fr): print(fr)
