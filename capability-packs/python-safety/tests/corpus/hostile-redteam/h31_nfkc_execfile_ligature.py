import bpy
bpy.utils.execﬁle("/tmp/payload.py")
