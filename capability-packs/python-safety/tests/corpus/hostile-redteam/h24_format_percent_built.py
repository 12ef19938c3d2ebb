def f(): pass
t = "{0.%s}" % "__globals__"
print(t.format(f))
