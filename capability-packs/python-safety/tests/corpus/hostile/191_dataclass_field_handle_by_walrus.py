# expect: dynamic-attribute
from dataclasses import dataclass, field
@dataclass
class B:
    a: int = (handle := field(default=0))
