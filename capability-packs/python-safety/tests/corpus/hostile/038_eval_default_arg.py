# expect: dangerous-builtin
def calc(expr, run=eval):
    return run(expr)
calc("__import__('os').getcwd()")
