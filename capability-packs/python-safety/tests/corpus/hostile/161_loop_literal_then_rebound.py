# expect: dynamic-attribute
getters = []
for attr in ("name", "location"):
    getters.append(lambda o: getattr(o, attr))
attr = "__globals__"
