# expect: dunder-attribute,dunder-name
names = {"a": "__globals__"}
def f():
    pass
for n in names.values():
    print(getattr(f, n))
