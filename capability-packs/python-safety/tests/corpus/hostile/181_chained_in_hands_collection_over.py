# expect: dynamic-attribute
class C:
    def __contains__(self, v):
        v.append("_" + "_globals__")
        return False
def f():
    pass
N = ["name"]
if "name" in N in C():
    pass
for k in N:
    g = getattr(f, k)
