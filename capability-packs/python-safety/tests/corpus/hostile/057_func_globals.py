# expect: dunder-attribute
def f():
    pass
b = f.__globals__["__builtins__"]
