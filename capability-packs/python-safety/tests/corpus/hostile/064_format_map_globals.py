# expect: format-traversal
class Box:
    def __init__(self):
        pass
print("{b.__init__.__globals__[__builtins__]}".format_map({"b": Box()}))
