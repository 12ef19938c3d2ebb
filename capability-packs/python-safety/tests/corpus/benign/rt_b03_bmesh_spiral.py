import bpy
import bmesh
import math
from mathutils import Vector

mesh = bpy.data.meshes.new("SpiralMesh")
obj = bpy.data.objects.new("Spiral", mesh)
bpy.context.collection.objects.link(obj)

bm = bmesh.new()
turns = 5
steps_per_turn = 48
radius = 2.0
rise = 0.3

prev = None
for i in range(turns * steps_per_turn + 1):
    t = i / steps_per_turn
    angle = t * 2 * math.pi
    r = radius * (1 - 0.1 * t)
    co = Vector((r * math.cos(angle), r * math.sin(angle), rise * t))
    v = bm.verts.new(co)
    if prev is not None:
        bm.edges.new((prev, v))
    prev = v

bm.to_mesh(mesh)
bm.free()

skin = obj.modifiers.new("Skin", 'SKIN')
sub = obj.modifiers.new("Subsurf", 'SUBSURF')
sub.levels = 2
sub.render_levels = 2
for sv in mesh.skin_vertices[0].data:
    sv.radius = (0.08, 0.08)
