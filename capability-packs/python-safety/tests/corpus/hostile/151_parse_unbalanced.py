# expect: parse-error
x = (1, 2
print(x)
