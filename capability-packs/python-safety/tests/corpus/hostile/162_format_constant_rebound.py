# expect: format-traversal
TEMPLATE = "{0.name}"
TEMPLATE = "{0.__init__.__globals__}"
print(TEMPLATE.format(len))
