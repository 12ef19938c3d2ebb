# expect: dynamic-attribute
import bpy
extra = {"filepath": "/tmp/x"}
settings = {"resolution_x": 1280, **extra}
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
