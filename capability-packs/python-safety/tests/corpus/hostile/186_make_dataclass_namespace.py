# expect: dangerous-builtin
import dataclasses
u = "_" * 2
Fake = dataclasses.make_dataclass("Fake", [], namespace={u + "match_args" + u: (u + "globals" + u,)})
