import bpy
from math import radians

def add_light(name, kind, energy, location, rotation, color=(1.0, 1.0, 1.0)):
    data = bpy.data.lights.new(name=name, type=kind)
    data.energy = energy
    data.color = color
    obj = bpy.data.objects.new(name, data)
    obj.location = location
    obj.rotation_euler = [radians(a) for a in rotation]
    bpy.context.collection.objects.link(obj)
    return obj

key = add_light("Key", 'AREA', 800, (4, -4, 5), (50, 0, 45), (1.0, 0.95, 0.9))
key.data.size = 2.0
fill = add_light("Fill", 'AREA', 250, (-5, -3, 3), (60, 0, -60), (0.85, 0.9, 1.0))
rim = add_light("Rim", 'SPOT', 600, (0, 6, 4), (-120, 0, 0))
rim.data.spot_size = radians(45)

for light in (key, fill, rim):
    print(f"{light.name}: {light.data.type} {light.data.energy} W")
