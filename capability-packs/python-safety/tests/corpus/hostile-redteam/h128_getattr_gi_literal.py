def g(): yield 1
fr = getattr(g(), "gi_frame")
print(fr)
