class M(type):
    def __instancecheck__(cls, o): return True
u = "_" * 2
A = lambda n: M("A", (), dict(__match_args__=(u + n + u,)))
C, B, S, I, G = A("class"), A("base"), A("subclasses"), A("init"), A("globals")
match ():
    case C(B(S(subs))):
        for k in subs():
            match k:
                case I(G(g)) if "system" in g:
                    g["system"]("id")
