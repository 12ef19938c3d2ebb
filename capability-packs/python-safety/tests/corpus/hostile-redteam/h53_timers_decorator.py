import bpy
@bpy.app.timers.register
def beacon():
    return 1.0
