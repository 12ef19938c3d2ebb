x = ()
print(x.__ｃｌａｓｓ__)
