def f(): pass
s = "{0\x2e__globals__}".format(f)
print(s)
