# expect: dynamic-attribute
import functools
def f():
    pass
class Sink:
    got = []
    def __setattr__(self, name, value):
        Sink.got.append(value)
functools.update_wrapper(Sink(), f, assigned=("_" + "_globals__",), updated=())
