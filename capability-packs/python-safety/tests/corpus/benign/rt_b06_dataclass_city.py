import bpy
import random
from dataclasses import dataclass, field

@dataclass
class Building:
    x: float
    y: float
    width: float
    depth: float
    floors: int
    tags: list = field(default_factory=list)

    @property
    def height(self) -> float:
        return self.floors * 3.2

    def __post_init__(self):
        if self.floors > 20:
            self.tags.append("tower")

def plan_block(seed: int, count: int = 25) -> list[Building]:
    rng = random.Random(seed)
    return [
        Building(
            x=rng.uniform(-40, 40),
            y=rng.uniform(-40, 40),
            width=rng.uniform(4, 10),
            depth=rng.uniform(4, 10),
            floors=rng.randint(2, 30),
        )
        for _ in range(count)
    ]

concrete = bpy.data.materials.new("Concrete")
concrete.diffuse_color = (0.55, 0.55, 0.52, 1)

for i, b in enumerate(plan_block(7)):
    bpy.ops.mesh.primitive_cube_add(size=1, location=(b.x, b.y, b.height / 2))
    ob = bpy.context.active_object
    ob.scale = (b.width, b.depth, b.height)
    ob.name = f"Bldg_{i:03d}" + ("_tower" if "tower" in b.tags else "")
    ob.data.materials.append(concrete)
    ob["floors"] = b.floors
