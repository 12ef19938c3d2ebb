import bpy
from dataclasses import dataclass, field, asdict


@dataclass
class GridLayout:
    rows: int = 3
    cols: int = 4
    spacing: float = 2.5
    names: list = field(default_factory=list)

    def positions(self):
        for r in range(self.rows):
            for c in range(self.cols):
                yield (c * self.spacing, r * self.spacing, 0.0)


layout = GridLayout(rows=2, cols=3)
for i, pos in enumerate(layout.positions()):
    bpy.ops.mesh.primitive_monkey_add(size=1.0, location=pos)
    obj = bpy.context.active_object
    obj.name = f"Suzanne_{i:02d}"
    layout.names.append(obj.name)

print(asdict(layout))
