# expect: dynamic-attribute
import enum
def hook(cls, name):
    return name
E = enum.Enum("E", [("_" + "_getattr__", hook)])
