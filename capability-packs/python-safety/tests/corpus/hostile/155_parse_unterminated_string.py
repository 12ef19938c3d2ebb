# expect: parse-error
s = "unterminated
print(s)
