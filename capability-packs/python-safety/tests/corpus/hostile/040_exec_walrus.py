# expect: dangerous-builtin
if (r := exec):
    r("print(open('/etc/passwd').read())")
