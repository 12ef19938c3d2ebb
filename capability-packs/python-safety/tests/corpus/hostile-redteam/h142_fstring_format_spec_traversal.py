def f(): pass
spec = "{0.__code__}"
print(f"{spec.format(f)}")
