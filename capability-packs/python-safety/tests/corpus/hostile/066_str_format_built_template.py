# expect: format-traversal
t = "{0." + "__class__}"
print(str.format(t, 1))
