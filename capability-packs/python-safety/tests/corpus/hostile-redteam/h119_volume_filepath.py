import bpy
v = bpy.data.volumes.new("v")
v.filepath = "/tmp/secret.vdb"
