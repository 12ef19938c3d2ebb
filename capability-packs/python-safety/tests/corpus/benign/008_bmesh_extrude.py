import bpy
import bmesh

bpy.ops.mesh.primitive_plane_add(size=2.0)
obj = bpy.context.active_object
me = obj.data

bm = bmesh.new()
bm.from_mesh(me)

top = bm.faces[:]
for step in range(4):
    result = bmesh.ops.extrude_face_region(bm, geom=top)
    new_verts = [e for e in result["geom"] if isinstance(e, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, vec=(0.0, 0.0, 0.5), verts=new_verts)
    bmesh.ops.scale(bm, vec=(0.85, 0.85, 1.0), verts=new_verts)
    top = [f for f in result["geom"] if isinstance(f, bmesh.types.BMFace)]

bm.to_mesh(me)
bm.free()
me.update()
print("tower faces:", len(me.polygons))
