def f(x, hook=breakpoint):
    hook()
