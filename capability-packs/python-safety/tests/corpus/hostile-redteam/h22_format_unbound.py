def g(): yield 1
x = g()
print(str.format("{0.gi_frame.f_globals}", x))
