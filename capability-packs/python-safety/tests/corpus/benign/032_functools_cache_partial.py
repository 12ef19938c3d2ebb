import bpy
from functools import lru_cache, partial, reduce


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def place(obj_name, x, z=0.0):
    bpy.ops.mesh.primitive_cube_add(size=0.5, location=(x, 0, z))
    bpy.context.active_object.name = obj_name


place_on_floor = partial(place, z=0.25)
for i in range(1, 9):
    place_on_floor(f"Fib_{i}", fib(i) * 0.6)

total = reduce(lambda acc, o: acc + o.location.x, bpy.context.scene.objects, 0.0)
print("sum of x positions:", round(total, 2))
print(fib.cache_info())
