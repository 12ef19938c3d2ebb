import dataclasses
n = "a=" + "".join(map(chr, [112, 114, 105, 110, 116, 40, 49, 41])) + ",*,b"
fld = dataclasses.field(init=False, repr=False, compare=False)
C = type("C", (), {"__annotations__": {n: int}, n: fld})
dataclasses.dataclass(C)
