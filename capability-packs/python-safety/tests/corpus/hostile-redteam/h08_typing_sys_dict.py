import typing
mods = typing.sys.modules
mods["builtins"].exec("print(1)")
