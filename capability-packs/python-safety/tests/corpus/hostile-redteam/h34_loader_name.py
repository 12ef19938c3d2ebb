m = __loader__
m.load_module("os")
