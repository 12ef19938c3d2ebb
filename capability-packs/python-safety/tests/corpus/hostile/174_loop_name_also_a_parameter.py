# expect: dynamic-attribute
def apply(obj, key, value):
    setattr(obj, key, value)
for key in ("location", "scale"):
    pass
