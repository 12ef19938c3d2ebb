# expect: introspection,dunder-attribute
try:
    1 / 0
except ZeroDivisionError as e:
    frame = e.__traceback__.tb_frame
    print(frame.f_back.f_globals.keys())
