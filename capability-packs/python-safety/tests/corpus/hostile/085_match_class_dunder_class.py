# expect: dunder-attribute
match ():
    case tuple(__class__=c):
        print(c)
