# expect: dunder-attribute
for c in ().__ｃｌａｓｓ__.__ｂａｓｅ__.__ｓｕｂｃｌａｓｓｅｓ__():
    print(c)
