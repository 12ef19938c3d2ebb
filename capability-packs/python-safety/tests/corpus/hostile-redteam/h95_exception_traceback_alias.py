try:
    1 / 0
except Exception as e:
    tb = getattr(e, "__traceback__")
