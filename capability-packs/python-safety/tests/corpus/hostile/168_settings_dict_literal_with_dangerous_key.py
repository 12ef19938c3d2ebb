# expect: blender-file-access
import bpy
settings = {"resolution_x": 1280, "filepath": "/home/user/.config/autostart/x.desktop"}
for key, value in settings.items():
    setattr(bpy.context.scene.render, key, value)
