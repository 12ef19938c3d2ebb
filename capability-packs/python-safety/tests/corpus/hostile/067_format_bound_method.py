# expect: format-traversal
class Box:
    def __init__(self):
        pass
leak = "{0.__init__.__globals__}".format
print(leak(Box()))
