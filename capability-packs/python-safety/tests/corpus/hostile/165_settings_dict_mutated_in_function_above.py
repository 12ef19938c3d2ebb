# expect: dynamic-attribute
import bpy
def prepare():
    settings.update(filepath="/tmp/x")
settings = {"resolution_x": 1280}
prepare()
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
