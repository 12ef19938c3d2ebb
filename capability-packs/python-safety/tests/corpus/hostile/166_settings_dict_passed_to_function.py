# expect: dynamic-attribute
import bpy
def add_key(d):
    d["filepath"] = "/tmp/x"
settings = {"resolution_x": 1280}
add_key(settings)
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
