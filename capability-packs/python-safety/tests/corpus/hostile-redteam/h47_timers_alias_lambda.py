import bpy
pick = lambda a: a.timers
pick(bpy.app).register(lambda: print("still here") or 1.0, persistent=True)
