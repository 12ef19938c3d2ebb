def gen():
    yield 1
g = gen()
match g:
    case object(gi_frame=fr):
        fr.f_builtins["exec"]("import os")
