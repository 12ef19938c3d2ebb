from enum import bltns as b
b.eval("1+1")
