# expect: import-not-allowed
import weakref


class Holder:
    pass


weakref.finalize(Holder(), print, "later")
