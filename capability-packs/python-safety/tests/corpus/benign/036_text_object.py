import bpy

curve = bpy.data.curves.new(name="Title", type='FONT')
curve.body = "capstan"
curve.align_x = 'CENTER'
curve.align_y = 'CENTER'
curve.size = 1.2
curve.extrude = 0.08
curve.bevel_depth = 0.01

title = bpy.data.objects.new("Title", curve)
title.location = (0, 0, 1.5)
title.rotation_euler = (1.5708, 0, 0)
bpy.context.collection.objects.link(title)

mat = bpy.data.materials.new("TitleGold")
mat.use_nodes = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (1.0, 0.77, 0.34, 1.0)
bsdf.inputs["Metallic"].default_value = 1.0
curve.materials.append(mat)

print("text object:", title.name, repr(curve.body))
