# expect: blender-persistence
import bpy
bpy.app.timers.register(lambda: (print("tick"), 1.0)[1], first_interval=1.0, persistent=True)
