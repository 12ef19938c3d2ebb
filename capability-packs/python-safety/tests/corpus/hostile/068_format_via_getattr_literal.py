# expect: format-traversal
fmt = getattr("{0.__class__.__mro__}", "format")
print(fmt(()))
