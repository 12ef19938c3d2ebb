import builtins
builtins.exec("1")
