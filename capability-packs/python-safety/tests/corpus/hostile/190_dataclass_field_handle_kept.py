# expect: dynamic-attribute
import dataclasses
handle = dataclasses.field(default=0)
@dataclasses.dataclass
class B:
    a: int = handle
handle.name = "a,print('injected'))or(self.a"
