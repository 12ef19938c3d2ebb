import bpy
from decimal import Decimal, localcontext

# Exact arithmetic for a price label, in a context that ends with the block.
with localcontext() as ctx:
    ctx.prec = 6
    total = sum(Decimal("0.1") for _ in range(len(bpy.data.objects) + 3))
label = f"{total} units"
print(label)
