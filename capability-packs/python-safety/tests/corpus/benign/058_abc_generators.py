import bpy
from abc import ABC, abstractmethod
from math import sin, pi


class Pattern(ABC):
    @abstractmethod
    def points(self):
        ...

    def build(self, radius=0.15):
        made = 0
        for co in self.points():
            bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, location=co)
            made += 1
        return made


class Wave(Pattern):
    def __init__(self, length=20, amplitude=1.0):
        self.length = length
        self.amplitude = amplitude

    def points(self):
        for i in range(self.length):
            yield (i * 0.4, 0.0, self.amplitude * sin(i / self.length * 2 * pi))


class Ring(Pattern):
    def __init__(self, count=12):
        self.count = count

    def points(self):
        from math import cos
        for i in range(self.count):
            a = 2 * pi * i / self.count
            yield (cos(a) * 2, sin(a) * 2, 2.0)


for pattern in (Wave(), Ring()):
    print(type(pattern).__name__, "spheres:", pattern.build())
