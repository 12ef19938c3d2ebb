# expect: format-traversal
g = (i for i in [0])
print(list(map("{0.gi_frame.f_globals}".format, [g])))
