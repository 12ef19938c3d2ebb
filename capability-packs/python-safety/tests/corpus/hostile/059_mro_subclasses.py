# expect: introspection,dunder-attribute
root = str.mro()[-1]
print(root.__subclasses__())
