# expect: implicit-code
import decimal


def values():
    with decimal.localcontext() as ctx:
        ctx.prec = 3
        yield decimal.Decimal(1) / 3
