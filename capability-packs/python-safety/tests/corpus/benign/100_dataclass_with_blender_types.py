# A small layout plan with typed fields, applied to the scene.
from dataclasses import dataclass, field

import bpy


@dataclass
class Placement:
    name: str
    location: tuple = (0.0, 0.0, 0.0)
    tags: list = field(default_factory=list)
    target: "bpy.types.Object | None" = None


def apply(plan: list[Placement]) -> list[bpy.types.Object]:
    placed: list[bpy.types.Object] = []
    for p in plan:
        bpy.ops.mesh.primitive_cube_add(size=0.5, location=p.location)
        obj = bpy.context.active_object
        obj.name = p.name
        p.target = obj
        placed.append(obj)
    return placed


plan = [Placement("Crate", (1, 0, 0), ["wood"]), Placement("Box", (-1, 0, 0))]
objs = apply(plan)
assert all(isinstance(o, bpy.types.Object) for o in objs)
result = [o.name for o in objs]
