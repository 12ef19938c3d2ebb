# expect: dunder-name
class Probe:
    __match_args__ = ("__init__",)
    def __init__(self):
        pass
match Probe():
    case Probe(init):
        print(init)
