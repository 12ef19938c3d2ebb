# expect: dynamic-attribute
import abc
M0 = type(abc.ABC)
class M(M0):
    def __getattr__(cls, name):
        return ("_" + "_globals__",)
    def __instancecheck__(cls, obj):
        return True
class Probe(metaclass=M0):
    pass
def f():
    pass
match f:
    case Probe(g):
        print(g)
