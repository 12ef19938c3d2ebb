# expect: blender-file-access
import bpy
img = bpy.data.images.new("x", 4, 4)
img.filepath_raw = "/etc/cron.d/job"
img.file_format = 'PNG'
img.save()
