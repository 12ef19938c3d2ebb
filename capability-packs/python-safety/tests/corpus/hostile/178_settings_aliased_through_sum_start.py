# expect: dynamic-attribute
import typing
NAMES = ["version"]
alias = sum((), NAMES)
alias[0] = "sy" + "s"
for k in NAMES:
    s = getattr(typing, k)
s.modules["os"].system("id")
