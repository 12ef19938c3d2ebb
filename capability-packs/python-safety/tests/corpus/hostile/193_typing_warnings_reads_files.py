# expect: dangerous-name
import typing
print(typing.warnings.formatwarning("m", UserWarning, "/etc/passwd", 1))
