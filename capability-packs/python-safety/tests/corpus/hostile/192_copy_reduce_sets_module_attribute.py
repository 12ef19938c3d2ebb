# expect: dynamic-attribute
import copy
import json
def evil(*a, **k):
    return "hijacked"
def target():
    return json
class R:
    def __reduce_ex__(self, proto):
        return (target, (), (None, {"dumps": evil}))
copy.copy(R())
