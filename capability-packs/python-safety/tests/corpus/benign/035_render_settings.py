import bpy

scene = bpy.context.scene
render = scene.render

render.engine = 'CYCLES'
scene.cycles.samples = 128
scene.cycles.use_denoising = True
render.resolution_x = 1920
render.resolution_y = 1080
render.resolution_percentage = 50
render.film_transparent = True
render.image_settings.file_format = 'PNG'
render.image_settings.color_mode = 'RGBA'
scene.view_settings.view_transform = 'Filmic' if bpy.app.version < (4, 0, 0) else 'AgX'

w = render.resolution_x * render.resolution_percentage // 100
h = render.resolution_y * render.resolution_percentage // 100
print(f"{render.engine} {w}x{h}, {scene.cycles.samples} samples, Blender {bpy.app.version_string}")
