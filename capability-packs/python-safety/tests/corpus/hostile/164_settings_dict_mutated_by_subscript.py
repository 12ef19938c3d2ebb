# expect: dynamic-attribute
import bpy
settings = {"resolution_x": 1280}
settings["filepath"] = "/home/user/.bashrc"
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
