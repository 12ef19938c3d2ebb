# expect: dangerous-name,dangerous-builtin
import enum
print(enum.bltns.open("/etc/passwd").read())
