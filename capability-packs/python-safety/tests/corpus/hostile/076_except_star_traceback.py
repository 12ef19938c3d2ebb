# expect: introspection,dunder-attribute
try:
    raise ExceptionGroup("g", [ValueError("x")])
except* ValueError as eg:
    g = eg.exceptions[0].__traceback__.tb_frame.f_globals
