import bpy
import copy
import json

DEFAULTS = {
    "light": {"type": "SUN", "energy": 3.0, "angle": 0.1},
    "camera": {"lens": 35, "location": [6, -6, 4]},
}
overrides = json.loads('{"light": {"energy": 5.0}, "camera": {"lens": 85}}')

config = copy.deepcopy(DEFAULTS)
for section, values in overrides.items():
    config.setdefault(section, {}).update(values)

sun_data = bpy.data.lights.new("Sun", type=config["light"]["type"])
sun_data.energy = config["light"]["energy"]
sun_data.angle = config["light"]["angle"]
sun = bpy.data.objects.new("Sun", sun_data)
bpy.context.collection.objects.link(sun)

cam_data = bpy.data.cameras.new("Cam")
cam_data.lens = config["camera"]["lens"]
cam = bpy.data.objects.new("Cam", cam_data)
cam.location = config["camera"]["location"]
bpy.context.collection.objects.link(cam)

print(json.dumps(config, indent=1))
print("defaults untouched:", DEFAULTS["camera"]["lens"] == 35)
