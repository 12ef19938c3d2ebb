# expect: import-not-allowed
import atexit

atexit.register(print, "at exit")
