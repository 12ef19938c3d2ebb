import bpy
import math

scene = bpy.context.scene
scene.frame_end = 240

target = bpy.data.objects.new("OrbitTarget", None)
target.empty_display_type = 'SPHERE'
scene.collection.objects.link(target)

cam = scene.camera
if cam is None:
    cam_data = bpy.data.cameras.new("OrbitCam")
    cam = bpy.data.objects.new("OrbitCam", cam_data)
    scene.collection.objects.link(cam)
    scene.camera = cam

pivot = bpy.data.objects.new("OrbitPivot", None)
scene.collection.objects.link(pivot)
cam.parent = pivot
cam.location = (10, 0, 4)

con = cam.constraints.new(type='TRACK_TO')
con.target = target
con.track_axis = 'TRACK_NEGATIVE_Z'
con.up_axis = 'UP_Y'

pivot.rotation_euler = (0, 0, 0)
pivot.keyframe_insert("rotation_euler", index=2, frame=1)
pivot.rotation_euler[2] = math.radians(360)
pivot.keyframe_insert("rotation_euler", index=2, frame=scene.frame_end + 1)

for fc in pivot.animation_data.action.fcurves:
    for kp in fc.keyframe_points:
        kp.interpolation = 'LINEAR'
