# expect: dynamic-attribute
import functools
mine = {}
def f():
    pass
@functools.wraps(f, assigned=(), updated=("_" + "_builtins__",))
def g():
    pass
