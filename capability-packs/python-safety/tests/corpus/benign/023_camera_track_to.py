import bpy

target = bpy.data.objects.new("CamTarget", None)
target.location = (0, 0, 1)
bpy.context.collection.objects.link(target)

cam_data = bpy.data.cameras.new("ShotCam")
cam_data.lens = 50
cam_data.dof.use_dof = True
cam_data.dof.focus_object = target
cam_data.dof.aperture_fstop = 2.8

cam = bpy.data.objects.new("ShotCam", cam_data)
cam.location = (7, -7, 4)
bpy.context.collection.objects.link(cam)

track = cam.constraints.new(type='TRACK_TO')
track.target = target
track.track_axis = 'TRACK_NEGATIVE_Z'
track.up_axis = 'UP_Y'

bpy.context.scene.camera = cam
print("active camera:", bpy.context.scene.camera.name, "lens", cam_data.lens)
