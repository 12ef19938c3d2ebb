u = "_" * 2
class M(type):
    def __instancecheck__(cls, o): return True
class C(metaclass=M): __match_args__ = (u + "class" + u,)
class B(metaclass=M): __match_args__ = (u + "base" + u,)
class S(metaclass=M): __match_args__ = (u + "subclasses" + u,)
match ():
    case C(B(S(subs))):
        print(subs())
