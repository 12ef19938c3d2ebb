# expect: dynamic-attribute
import abc
class NS(dict):
    def __getitem__(self, key):
        if key == "k":
            return "_" + "_globals__"
        raise KeyError(key)
class Meta(abc.ABCMeta):
    @classmethod
    def __prepare__(mcs, name, bases, **kw):
        return NS()
def f():
    pass
Base = Meta("Base", (), {})
class C(Base):
    for k in ("name",):
        g = getattr(f, k)
