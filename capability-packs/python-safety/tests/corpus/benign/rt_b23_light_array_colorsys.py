import bpy
import colorsys
import math

scene = bpy.context.scene
ring = bpy.data.collections.new("LightRing")
scene.collection.children.link(ring)

N = 12
RADIUS = 6.0
for i in range(N):
    angle = 2 * math.pi * i / N
    hue = i / N
    light = bpy.data.lights.new(f"Point_{i:02d}", type='POINT')
    light.color = colorsys.hls_to_rgb(hue, 0.5, 1.0)
    light.energy = 250
    light.shadow_soft_size = 0.3
    lo = bpy.data.objects.new(light.name, light)
    lo.location = (RADIUS * math.cos(angle), RADIUS * math.sin(angle), 2.0)
    ring.objects.link(lo)

    light.keyframe_insert("energy", frame=1)
    light.energy = 50 if i % 2 else 500
    light.keyframe_insert("energy", frame=24)
    light.energy = 250
    light.keyframe_insert("energy", frame=48)
