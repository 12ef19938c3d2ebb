match ():
    case object(__class__=object(__base__=object(__subclasses__=subs))):
        for c in subs():
            if c.__name__ == "_wrap_close":
                match c.__init__:
                    case object(__globals__=g):
                        g["system"]("id")
