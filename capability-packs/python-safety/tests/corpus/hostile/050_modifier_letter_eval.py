# expect: dangerous-builtin
print(ᵉval("2 ** 8"))
