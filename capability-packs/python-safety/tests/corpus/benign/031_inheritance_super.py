import bpy


class Prop:
    def __init__(self, name, location):
        self.name = name
        self.location = location
        self.obj = None

    def create(self):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}(name={self.name!r}, location={self.location})"


class Crate(Prop):
    def __init__(self, name, location, size=1.0):
        super().__init__(name, location)
        self.size = size

    def create(self):
        bpy.ops.mesh.primitive_cube_add(size=self.size, location=self.location)
        self.obj = bpy.context.active_object
        self.obj.name = self.name
        bevel = self.obj.modifiers.new("Bevel", 'BEVEL')
        bevel.width = 0.02 * self.size
        return self.obj


class Barrel(Prop):
    def __init__(self, name, location, radius=0.4):
        super().__init__(name, location)
        self.radius = radius

    def create(self):
        bpy.ops.mesh.primitive_cylinder_add(radius=self.radius, depth=self.radius * 2.5, location=self.location)
        self.obj = bpy.context.active_object
        self.obj.name = self.name
        return self.obj


props = [Crate("Crate_A", (0, 0, 0.5)), Crate("Crate_B", (1.2, 0, 0.4), 0.8), Barrel("Barrel", (-1.2, 0, 0.5))]
for p in props:
    p.create()
    print(p)
