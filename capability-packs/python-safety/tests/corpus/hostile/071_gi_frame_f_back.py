# expect: introspection
g = (x for x in [1])
print(g.gi_frame.f_back.f_globals)
