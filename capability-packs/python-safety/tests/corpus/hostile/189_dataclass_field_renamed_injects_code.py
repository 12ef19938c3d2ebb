# expect: dynamic-attribute
import dataclasses
@dataclasses.dataclass
class B:
    a: int = 0
dataclasses.fields(B)[0].name = "a,print('injected'))or(self.a"
@dataclasses.dataclass(init=False, repr=False)
class C(B):
    pass
C() == C()
