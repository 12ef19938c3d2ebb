# expect: dynamic-attribute
import functools
chain = ["__class__", "__base__", "__subclasses__"]
for cls in functools.reduce(getattr, chain, ())():
    print(cls)
