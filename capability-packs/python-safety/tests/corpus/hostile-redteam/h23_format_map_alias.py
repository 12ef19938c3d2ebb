def g(): yield 1
fm = "{x.gi_frame.f_back}".format_map
print(fm({"x": g()}))
