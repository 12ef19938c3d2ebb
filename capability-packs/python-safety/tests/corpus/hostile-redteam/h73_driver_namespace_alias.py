import bpy
ns = getattr(bpy.app, "driver_namespace")
ns["evil"] = print
