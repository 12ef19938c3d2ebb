# expect: dangerous-builtin
__builtins__.__dict__["ev" + "al"]("1")
