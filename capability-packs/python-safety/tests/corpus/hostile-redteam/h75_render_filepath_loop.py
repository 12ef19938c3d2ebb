import bpy
for s in bpy.data.scenes:
    s.render.filepath = "/etc/cron.d/job"
