# expect: dunder-name
import enum
E = enum.Enum("E", [("__match_args__", ("__init__",)), ("A", 1)])
