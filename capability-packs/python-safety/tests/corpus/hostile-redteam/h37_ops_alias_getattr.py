import bpy
o = getattr(bpy, "ops")
w = getattr(o, "wm")
w.save_as_mainfile(filepath="/tmp/x.blend")
