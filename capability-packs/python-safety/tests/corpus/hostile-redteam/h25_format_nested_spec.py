def f(): pass
print("{0:{1.__code__.co_consts}}".format(1, f))
