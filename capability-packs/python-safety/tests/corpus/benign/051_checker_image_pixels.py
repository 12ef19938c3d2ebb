import bpy

size = 64
img = bpy.data.images.new("Checker", width=size, height=size, alpha=False)
pixels = []
for y in range(size):
    for x in range(size):
        on = ((x // 8) + (y // 8)) % 2 == 0
        v = 0.9 if on else 0.1
        pixels.extend((v, v, v, 1.0))
img.pixels.foreach_set(pixels)
img.update()

mat = bpy.data.materials.new("CheckerMat")
mat.use_nodes = True
tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
tex.image = img
tex.interpolation = 'Closest'
bsdf = mat.node_tree.nodes["Principled BSDF"]
mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])

obj = bpy.context.active_object
if obj and obj.type == 'MESH':
    obj.active_material = mat
print("checker image:", img.name, img.size[:])
