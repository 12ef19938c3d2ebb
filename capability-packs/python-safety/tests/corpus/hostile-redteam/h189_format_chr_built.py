def g(): yield 1
t = "".join(map(chr, [123, 48, 46, 103, 105, 95, 102, 114, 97, 109, 101, 125]))
print(t.format(g()))
