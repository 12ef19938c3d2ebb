import typing
gf = typing.sys._getframe
print(gf(0).f_globals)
