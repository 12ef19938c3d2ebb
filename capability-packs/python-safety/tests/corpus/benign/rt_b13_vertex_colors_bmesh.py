import bpy
import bmesh
import colorsys

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=4, radius=1.5)
obj = bpy.context.active_object
mesh = obj.data

color_attr = mesh.color_attributes.new(name="Height", type='FLOAT_COLOR', domain='CORNER')

bm = bmesh.new()
bm.from_mesh(mesh)
layer = bm.loops.layers.float_color.get("Height")

zs = [v.co.z for v in bm.verts]
zmin, zmax = min(zs), max(zs)

for face in bm.faces:
    for loop in face.loops:
        t = (loop.vert.co.z - zmin) / (zmax - zmin)
        r, g, b = colorsys.hsv_to_rgb(0.66 * (1 - t), 0.8, 1.0)
        loop[layer] = (r, g, b, 1.0)

bm.to_mesh(mesh)
bm.free()
mesh.update()

mat = bpy.data.materials.new("VertexColorMat")
mat.use_nodes = True
attr = mat.node_tree.nodes.new("ShaderNodeVertexColor")
attr.layer_name = "Height"
bsdf = mat.node_tree.nodes["Principled BSDF"]
mat.node_tree.links.new(attr.outputs["Color"], bsdf.inputs["Base Color"])
obj.data.materials.append(mat)
