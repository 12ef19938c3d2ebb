# expect: introspection
import typing
Code = typing.types.CodeType
print(Code)
