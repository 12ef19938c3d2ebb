import enum
E = enum.Enum("E", {"sqrt": 1, "sin": 2}, module="math")
enum.global_enum(E)
