# expect: dynamic-attribute
g = (i for i in range(3))
attr = "gi_" + "frame"
frame = getattr(g, attr)
