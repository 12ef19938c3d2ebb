# expect: dunder-attribute,introspection
def f():
    pass
print(f.__code__.co_code)
