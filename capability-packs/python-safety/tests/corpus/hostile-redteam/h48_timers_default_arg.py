import bpy
def arm(app=bpy.app):
    app.timers.register(lambda: 5.0, persistent=True)
arm()
