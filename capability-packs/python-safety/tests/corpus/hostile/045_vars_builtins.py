# expect: dangerous-builtin
b = vars()["__builtins__"]
print(b)
