# expect: dangerous-builtin
breakpoint()
