# expect: dangerous-builtin
__loader__.load_module("os").system("id")
