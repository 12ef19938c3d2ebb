import bpy
for im in bpy.data.images:
    im.save()
