# expect: dynamic-attribute
import bpy
def sorted(d):
    d["filepath"] = "/tmp/x"
    return []
settings = {"resolution_x": 1280}
sorted(settings)
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
