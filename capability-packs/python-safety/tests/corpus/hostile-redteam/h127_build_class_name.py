bc = __build_class__
print(bc)
