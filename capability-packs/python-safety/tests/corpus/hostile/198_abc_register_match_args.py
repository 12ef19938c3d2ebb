# expect: dynamic-attribute
import abc
import dataclasses
@dataclasses.dataclass
class B:
    a: int = 0
dataclasses.fields(B)[0].name = "_" + "_builtins__"
@dataclasses.dataclass
class C(B, abc.ABC):
    pass
def f():
    pass
C.register(type(f))
match f:
    case C(bd):
        print(bd)
