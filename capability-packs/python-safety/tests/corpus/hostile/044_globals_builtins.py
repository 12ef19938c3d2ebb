# expect: dangerous-builtin
ev = globals()["__builtins__"]["eval"]
ev("1 + 1")
