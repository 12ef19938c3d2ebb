import bpy
import textwrap
from datetime import date

title = "Quarterly Product Showcase"
subtitle = textwrap.fill("New lineup of ergonomic desk lamps and accessories", width=28)

def add_text(body, size, location, extrude=0.02, name=None):
    curve = bpy.data.curves.new(name=name or "Text", type='FONT')
    curve.body = body
    curve.size = size
    curve.extrude = extrude
    curve.align_x = 'CENTER'
    curve.align_y = 'CENTER'
    obj = bpy.data.objects.new(name or "Text", curve)
    obj.location = location
    bpy.context.scene.collection.objects.link(obj)
    return obj

t1 = add_text(title, 0.8, (0, 0, 3), extrude=0.05, name="Title")
t2 = add_text(subtitle, 0.35, (0, 0, 2), name="Subtitle")
t3 = add_text(date.today().strftime("%B %Y"), 0.25, (0, 0, 1.3), name="Date")

emission = bpy.data.materials.new("TitleGlow")
emission.use_nodes = True
nodes = emission.node_tree.nodes
bsdf = nodes["Principled BSDF"]
bsdf.inputs["Emission Color"].default_value = (1.0, 0.6, 0.2, 1.0)
bsdf.inputs["Emission Strength"].default_value = 3.0
t1.data.materials.append(emission)

for t in (t1, t2, t3):
    t.rotation_euler = (1.5708, 0, 0)
