# expect: format-traversal
print("{0:{1.__class__}}".format(1, ()))
