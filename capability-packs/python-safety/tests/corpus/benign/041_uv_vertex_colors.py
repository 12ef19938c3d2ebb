import bpy
import bmesh
import colorsys

bpy.ops.mesh.primitive_cube_add(size=2)
obj = bpy.context.active_object
me = obj.data

bm = bmesh.new()
bm.from_mesh(me)
uv_layer = bm.loops.layers.uv.verify()
for face in bm.faces:
    for loop, uv in zip(face.loops, [(0, 0), (1, 0), (1, 1), (0, 1)]):
        loop[uv_layer].uv = uv
bm.to_mesh(me)
bm.free()

colors = me.color_attributes.new(name="Tint", type='BYTE_COLOR', domain='CORNER')
for i, poly in enumerate(me.polygons):
    r, g, b = colorsys.hls_to_rgb(i / len(me.polygons), 0.5, 0.8)
    for li in poly.loop_indices:
        colors.data[li].color = (r, g, b, 1.0)

print("uv layers:", [uv.name for uv in me.uv_layers], "color attrs:", [c.name for c in me.color_attributes])
