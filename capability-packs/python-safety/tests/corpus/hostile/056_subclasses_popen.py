# expect: dunder-attribute
for c in ().__class__.__bases__[0].__subclasses__():
    if c.__name__ == "Popen":
        c(["id"])
