import bpy
import math
from mathutils import Vector

scene = bpy.context.scene

def look_at(obj, target):
    direction = Vector(target) - obj.location
    obj.rotation_euler = direction.to_track_quat('-Z', 'Y').to_euler()

cam_data = bpy.data.cameras.new("MainCam")
cam_data.lens = 50
cam_data.dof.use_dof = True
cam_data.dof.focus_distance = 8.0
cam_data.dof.aperture_fstop = 2.8
cam = bpy.data.objects.new("MainCam", cam_data)
scene.collection.objects.link(cam)
cam.location = (7.0, -7.0, 5.0)
look_at(cam, (0, 0, 1))
scene.camera = cam

lights = {
    "Key": ('AREA', 1000, (4, -4, 6)),
    "Fill": ('AREA', 300, (-5, -3, 3)),
    "Rim": ('SPOT', 800, (0, 6, 5)),
}
for name, (kind, energy, loc) in lights.items():
    ld = bpy.data.lights.new(name, type=kind)
    ld.energy = energy
    if kind == 'SPOT':
        ld.spot_size = math.radians(45)
    lo = bpy.data.objects.new(name, ld)
    lo.location = loc
    scene.collection.objects.link(lo)
    look_at(lo, (0, 0, 0))

scene.render.resolution_x = 1920
scene.render.resolution_y = 1080
