from typing import get_type_hints as hints
def f(x: "int"): pass
hints(f)
