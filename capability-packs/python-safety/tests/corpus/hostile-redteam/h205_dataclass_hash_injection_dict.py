import dataclasses
pl = "".join(map(chr, [112, 114, 105, 110, 116, 40, 49, 41]))
ns = dict(__annotations__={"x," + pl: int}, x=0)
K = dataclasses.dataclass(init=False, repr=False, eq=False, unsafe_hash=True)(type("K", (), ns))
hash(K())
