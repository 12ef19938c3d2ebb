# expect: dangerous-builtin
__import__("os").system("id")
