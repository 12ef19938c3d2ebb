def f(): pass
fmt = "{0.__globals__}".format
fmt(f)
