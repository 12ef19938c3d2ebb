import bpy
from abc import ABC, abstractmethod
from decimal import Decimal, ROUND_HALF_UP

class Prop(ABC):
    def __init__(self, name, location):
        self.name = name
        self.location = location

    @abstractmethod
    def build(self):
        ...

    def finish(self, obj):
        obj.name = self.name
        obj.location = self.location
        return obj

class Table(Prop):
    def build(self):
        bpy.ops.mesh.primitive_cube_add(size=1)
        top = bpy.context.active_object
        top.scale = (2.0, 1.0, 0.08)
        return self.finish(top)

class Lamp(Prop):
    def build(self):
        bpy.ops.mesh.primitive_cone_add(radius1=0.3, radius2=0.1, depth=0.4)
        return self.finish(bpy.context.active_object)

props = [Table("DiningTable", (0, 0, 0.75)), Lamp("DeskLamp", (0.6, 0.2, 1.0))]
for p in props:
    obj = p.build()
    area = Decimal(obj.dimensions.x * obj.dimensions.y).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    print(f"{type(p).__name__:<6} {obj.name}: footprint {area} m2")
