# expect: dunder-attribute,dunder-name
pairs = [("name", "x"), ("__class__", object)]
class Box:
    pass
for attr, value in pairs:
    setattr(Box(), attr, value)
