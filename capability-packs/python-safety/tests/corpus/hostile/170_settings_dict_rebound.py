# expect: dynamic-attribute
import bpy
settings = {"resolution_x": 1280}
if bpy.context.scene:
    settings = {"filepath": "/tmp/x"}
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
