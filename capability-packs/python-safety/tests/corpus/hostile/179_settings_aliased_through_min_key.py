# expect: dynamic-attribute
NAMES = ["real"]
alias = min(NAMES, NAMES, key=len)
u = "_" * 2
alias[0] = u + "globals" + u
def f():
    pass
for k in NAMES:
    g = getattr(f, k)
