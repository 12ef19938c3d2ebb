# expect: dynamic-attribute
import bpy
settings = {"resolution_x": 1280}
other = settings
other.setdefault("filepath", "/tmp/x")
for key in settings:
    setattr(bpy.context.scene.render, key, settings[key])
