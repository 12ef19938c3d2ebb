import dataclasses
ns = dict(__annotations__={"a=print(1),*,b": int})
ns["a=print(1),*,b"] = dataclasses.field(init=False, repr=False, compare=False)
dataclasses.dataclass(type("Q", (), ns))
