# expect: dangerous-builtin
build = lambda s: compile(s, "<scene>", "exec")
code = build("import os")
