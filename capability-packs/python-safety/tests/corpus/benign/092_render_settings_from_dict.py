import bpy

# Apply a block of render settings by name.
settings = {
    "resolution_x": 1280,
    "resolution_y": 720,
    "resolution_percentage": 100,
    "fps": 24,
}
render = bpy.context.scene.render
for key, value in settings.items():
    if hasattr(render, key):
        setattr(render, key, value)
print("applied", len(settings), "settings:", ", ".join(sorted(settings)))
result = {key: getattr(render, key) for key in settings}
