"""The plain-data copy of a script's `result`: what `execute_python` hands back.

Security reasoning: the answer must hold nothing the script made. An object of the
script's own class (a `dict` subclass with a `__del__`, a `str` subclass, anything with
a finaliser or a weak-reference callback) kept in the answer outlives the runtime guard:
its finaliser would run later, unguarded, on whichever thread drops it last. So the
runner copies `result` while the guard is still armed and the deadline still running,
and then drops every object the script made (runner.py). The copy:

- is built only of the builtin JSON types, checked by exact type (`type(x) is dict`),
  never by `isinstance` (which also asks the object's own `__class__`), so a subclass
  is never kept;
- takes a subclass of `str`, `int`, `float`, `dict`, `list` or `tuple` by value through
  the base type's own C slots (`str.__str__`, `int.__int__`, `float.__float__`,
  `dict.items`, `list.__iter__`, `tuple.__iter__`), which copy the underlying value and
  run none of the subclass's methods; a tuple becomes a list;
- turns dict keys into strings the way `json.dumps` does (`1` -> `"1"`, `None` ->
  `"null"`), other keys into their `repr`;
- describes any other value (a `bpy` struct, a `Vector`, a set, an object of the
  script's class) by its `repr`, at most MAX_REPR_CHARS characters, computed under the
  guard like everything else here;
- writes non-finite floats as the strings "nan", "inf" and "-inf" (JSON has no such
  numbers, and the host's parser would refuse the whole answer);
- is bounded: nesting deeper than MAX_DEPTH, more than MAX_ITEMS values, or more than
  MAX_JSON_BYTES once encoded is refused with `ResultTooLarge`, which names the bound
  (a cycle in the result reaches the depth bound).
"""

import json
import math

MAX_DEPTH = 32
MAX_ITEMS = 100_000
MAX_JSON_BYTES = 4 * 1024 * 1024
MAX_REPR_CHARS = 4096


class ResultTooLarge(ValueError):
    """The script's `result` is over one of the bounds (the message names it)."""


class _Budget:
    def __init__(self):
        self.items = 0

    def take(self):
        self.items += 1
        if self.items > MAX_ITEMS:
            raise ResultTooLarge("the script's `result` holds more than %d values (the bound on execute_python's result)" % MAX_ITEMS)


def _text(value):
    """An exact `str` with the characters of `value` (a str or a subclass of it)."""
    return str.__str__(value)


def _described(value):
    text = repr(value)  # `repr` insists on a str; a subclass of it is copied below
    text = _text(text)
    return text[:MAX_REPR_CHARS]


def _float(value):
    number = float.__float__(value)
    if math.isfinite(number):
        return number
    return "nan" if math.isnan(number) else ("inf" if number > 0 else "-inf")


def _key(key):
    kind = type(key)
    if kind is str:
        return key
    if kind is bool:
        return "true" if key else "false"
    if key is None:
        return "null"
    if issubclass(kind, str):
        return _text(key)
    if issubclass(kind, int):
        return int.__repr__(int.__int__(key))
    if issubclass(kind, float):
        number = _float(key)
        return number if type(number) is str else float.__repr__(number)
    return _described(key)


def _copy(value, depth, budget):
    budget.take()
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is str or kind is int:
        return value
    if kind is float:
        return _float(value)
    if depth >= MAX_DEPTH:
        raise ResultTooLarge("the script's `result` is nested deeper than %d levels (the bound on execute_python's result; a container that holds itself never ends)" % MAX_DEPTH)
    # `issubclass` of the exact type: `isinstance` would also ask the object's own
    # `__class__`, which the script may have made lie.
    if issubclass(kind, dict):
        items = list(dict.items(value))  # a snapshot: nothing below can change it under us
        copied = {}
        for key, item in items:
            copied[_key(key)] = _copy(item, depth + 1, budget)
        return copied
    if issubclass(kind, (list, tuple)):
        base = list if issubclass(kind, list) else tuple
        return [_copy(item, depth + 1, budget) for item in list(base.__iter__(value))]
    # bool cannot be subclassed; these are the scalar subclasses, taken by value.
    if issubclass(kind, str):
        return _text(value)
    if issubclass(kind, int):
        return int.__int__(value)
    if issubclass(kind, float):
        return _float(value)
    return _described(value)


def copy(value):
    """The plain-data copy of `value` (see the module doc); raises ResultTooLarge."""
    copied = _copy(value, 0, _Budget())
    size = len(json.dumps(copied).encode("utf-8"))
    if size > MAX_JSON_BYTES:
        raise ResultTooLarge("the script's `result` is %d bytes as JSON, over the %d-byte bound on execute_python's result" % (size, MAX_JSON_BYTES))
    return copied
