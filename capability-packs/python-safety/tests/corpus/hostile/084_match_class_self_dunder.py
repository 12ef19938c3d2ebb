# expect: dunder-attribute
match print:
    case object(__self__=mod):
        mod.open("/etc/passwd")
