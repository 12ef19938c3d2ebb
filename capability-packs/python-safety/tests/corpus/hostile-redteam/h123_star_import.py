from math import *
