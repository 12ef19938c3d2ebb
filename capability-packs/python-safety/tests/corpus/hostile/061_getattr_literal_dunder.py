# expect: dunder-attribute
base = getattr(getattr((), "__class__"), "__base__")
print(base)
