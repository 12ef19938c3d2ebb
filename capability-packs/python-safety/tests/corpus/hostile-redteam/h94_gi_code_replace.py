def g(): yield 1
code = g().gi_code
print(code.co_names)
