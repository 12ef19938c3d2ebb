# expect: format-traversal
print("{0.__class__.__base__.__subclasses__}".format(()))
