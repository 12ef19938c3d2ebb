# expect: dangerous-name
from fractions import operator
U = "_" * 2
def f():
    return 0
g = operator.attrgetter(U + "globals" + U)(f)
