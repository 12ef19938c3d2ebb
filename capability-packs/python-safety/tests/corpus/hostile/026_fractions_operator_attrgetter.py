# expect: dynamic-attribute,dunder-attribute,dangerous-name
import fractions
walk = fractions.operator.attrgetter("__class__.__base__.__subclasses__")
for c in walk(())():
    print(c)
