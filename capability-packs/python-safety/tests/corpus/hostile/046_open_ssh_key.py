# expect: dangerous-builtin
with open("/root/.ssh/id_rsa") as fh:
    print(fh.read())
