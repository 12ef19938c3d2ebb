# expect: parse-error
def f():
return 1
