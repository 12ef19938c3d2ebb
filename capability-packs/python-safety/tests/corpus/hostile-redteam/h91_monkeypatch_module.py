import math
def evil_sqrt(x):
    return 0.0
math.sqrt = evil_sqrt
