# expect: dangerous-name,dynamic-attribute
from typing import types
import abc
U = "_" * 2
def body(ns):
    ns[U + "prepare" + U] = classmethod(lambda mcs, name, bases, **kw: {"hidden": 42})
M = types.new_class("M", (type(abc.ABC),), {}, body)
kw = {"meta" + "class": M}
class C(**kw):
    v = hidden
