import typing
def f(): pass
typing.types.FunctionType
typing.types.CodeType
