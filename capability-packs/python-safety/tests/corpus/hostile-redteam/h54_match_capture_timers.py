import bpy
match bpy.app:
    case object(timers=t):
        t.register(lambda: 1.0)
