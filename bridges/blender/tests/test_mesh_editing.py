"""The mutate commands of blender-modeling against real Blender: counts before and
after, geometry read back, deltas verified against whole-scene snapshots."""

import math

import bpy
import pytest
from mathutils import Vector


def cube(client, name, **kw):
    client.ok("create_object", type="cube", name=name, **kw)
    return bpy.data.objects[name]


def world_bbox(obj):
    bpy.context.view_layer.update()
    pts = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return [min(p[i] for p in pts) for i in range(3)], [max(p[i] for p in pts) for i in range(3)]


def test_applying_a_subdivision_bakes_it_and_removes_the_modifier(client):
    obj = cube(client, "EApply")
    client.ok("add_modifier", object="EApply", type="SUBSURF", properties={"levels": 1})
    client.ok("add_modifier", object="EApply", type="BEVEL", name="KeepMe")
    r = client.ok("apply_modifier", object="EApply", modifier="Subsurf")
    assert r["before"]["vertices"] == 8 and r["after"]["vertices"] == 26 and r["modifiers"] == ["KeepMe"]
    assert r["delta"]["changed"] == ["EApply"] and set(r["delta"]["fields"]["EApply"]) >= {"data", "modifiers"}
    assert len(obj.data.vertices) == 26 and [m.name for m in obj.modifiers] == ["KeepMe"]
    assert obj.modifiers["KeepMe"].show_viewport
    assert client.call("apply_modifier", object="EApply", modifier="Subsurf")["error"]["code"] == "not_found"


def test_shared_meshes_are_not_applied(client):
    cube(client, "EShared")
    client.ok("duplicate_object", name="EShared", linked=True)
    client.ok("add_modifier", object="EShared", type="SUBSURF")
    doc = client.call("apply_modifier", object="EShared", modifier="Subsurf")
    assert doc["error"]["code"] == "invalid_target" and len(bpy.data.objects["EShared"].data.vertices) == 8


def test_remove_modifier(client):
    cube(client, "ERemove")
    client.ok("add_modifier", object="ERemove", type="BEVEL")
    r = client.ok("remove_modifier", object="ERemove", modifier="Bevel")
    assert r["modifiers"] == [] and len(bpy.data.objects["ERemove"].modifiers) == 0


def test_a_boolean_difference_cuts_the_bounding_box(client):
    obj = cube(client, "EBool", location=[20, 0, 0])
    cube(client, "ECutter", location=[21, 0, 0])
    client.ok("add_modifier", object="EBool", type="BOOLEAN", properties={"object": "ECutter", "operation": "DIFFERENCE", "solver": "EXACT"})
    r = client.ok("apply_modifier", object="EBool", modifier="Boolean")
    lo, hi = world_bbox(obj)
    assert hi[0] == pytest.approx(20.0, abs=1e-4) and lo[0] == pytest.approx(19.0, abs=1e-4)
    assert r["after"]["faces"] >= 6


def test_the_fast_boolean_solver_is_named_in_either_blender_lines_words(client):
    # 5.0 renamed the solver item FAST to FLOAT: both names set it on 4.5 LTS and 5.2 LTS.
    own = "FLOAT" if bpy.app.version >= (5, 0, 0) else "FAST"
    cube(client, "ESolver")
    cube(client, "ESolverCutter", location=[30, 0, 0])
    for given in ("FAST", "FLOAT"):
        client.ok("add_modifier", object="ESolver", type="BOOLEAN", name=given, properties={"object": "ESolverCutter", "solver": given})
        assert bpy.data.objects["ESolver"].modifiers[given].solver == own
    doc = client.call("add_modifier", object="ESolver", type="BOOLEAN", properties={"solver": "QUICK"})
    assert doc["error"]["code"] == "invalid_params" and "QUICK" in doc["error"]["message"]


def test_extrude_inset_bevel_subdivide_on_a_cube(client):
    obj = cube(client, "EOps")
    r = client.ok("mesh_op", object="EOps", op="extrude", selection={"kind": "faces", "indices": [5]}, params={"offset": 1})
    assert r["before"]["faces"] == 6 and r["after"]["faces"] == 10 and r["after"]["vertices"] == 12
    zs = sorted({round(v.co.z, 4) for v in obj.data.vertices}) + sorted({round(v.co.x, 4) for v in obj.data.vertices})
    lo, hi = world_bbox(obj)
    assert max(h - l for l, h in zip(lo, hi)) == pytest.approx(3.0, abs=1e-4), zs
    r = client.ok("mesh_op", object="EOps", op="inset", selection={"kind": "faces", "indices": [0]}, params={"width": 0.2})
    assert r["after"]["faces"] == r["before"]["faces"] + 4
    cube(client, "EBevel")
    r = client.ok("mesh_op", object="EBevel", op="bevel", params={"width": 0.1, "segments": 2})
    assert r["after"]["faces"] > 6 and r["after"]["vertices"] > 8
    cube(client, "ESub")
    r = client.ok("mesh_op", object="ESub", op="subdivide", params={"cuts": 1})
    assert r["after"] == {"vertices": 26, "edges": 48, "faces": 24}


def test_triangulate_quads_merge_delete_and_normals(client):
    cube(client, "ETri")
    r = client.ok("mesh_op", object="ETri", op="triangulate")
    assert r["after"]["faces"] == 12
    r = client.ok("mesh_op", object="ETri", op="tris_to_quads")
    assert r["after"]["faces"] == 6
    cube(client, "EMerge")
    r = client.ok("mesh_op", object="EMerge", op="merge", selection={"kind": "verts", "indices": [0, 1]})
    assert r["after"]["vertices"] == 7
    cube(client, "EDel")
    r = client.ok("mesh_op", object="EDel", op="delete", selection={"kind": "faces", "indices": [0]})
    assert r["after"]["faces"] == 5 and r["after"]["vertices"] == 8
    obj = cube(client, "EFlip")
    before = [tuple(p.normal) for p in obj.data.polygons]
    client.ok("mesh_op", object="EFlip", op="flip_normals")
    assert all(Vector(a).dot(b.normal) < -0.99 for a, b in zip(before, obj.data.polygons))
    client.ok("mesh_op", object="EFlip", op="recalc_normals")
    assert all(Vector(a).dot(b.normal) > 0.99 for a, b in zip(before, obj.data.polygons))


def test_poke_bisect_spin_solidify_smooth_randomize(client):
    cube(client, "EPoke")
    assert client.ok("mesh_op", object="EPoke", op="poke")["after"]["faces"] == 24
    obj = cube(client, "EBisect")
    client.ok("mesh_op", object="EBisect", op="bisect", params={"plane_no": [0, 0, 1], "clear_outer": True})
    assert max(v.co.z for v in obj.data.vertices) == pytest.approx(0.0, abs=1e-5)
    client.ok("create_mesh", name="ESpin", vertices=[[1, 0, 0], [1, 0, 1]], edges=[[0, 1]])
    r = client.ok("mesh_op", object="ESpin", op="spin", params={"steps": 8, "angle": 360})
    assert r["after"]["faces"] == 8 and r["after"]["vertices"] == 16
    client.ok("create_object", type="plane", name="ESolid")
    r = client.ok("mesh_op", object="ESolid", op="solidify", params={"thickness": 0.2})
    assert r["after"]["faces"] == 6 and r["after"]["vertices"] == 8
    obj = cube(client, "ESmooth")
    client.ok("mesh_op", object="ESmooth", op="subdivide", params={"cuts": 2})
    span = max(v.co.x for v in obj.data.vertices)
    client.ok("mesh_op", object="ESmooth", op="smooth_vertices", params={"factor": 1.0, "iterations": 3})
    assert max(v.co.x for v in obj.data.vertices) < span
    a, b = cube(client, "ERand1"), cube(client, "ERand2")
    for name in ("ERand1", "ERand2"):
        client.ok("mesh_op", object=name, op="randomize", params={"offset": 0.1, "seed": 7})
    assert [tuple(v.co) for v in a.data.vertices] == [tuple(v.co) for v in b.data.vertices]
    assert any(abs(v.co.x) != 1.0 for v in a.data.vertices)


def test_mesh_op_refuses_foreign_params_bad_indices_and_non_meshes(client):
    obj = cube(client, "ERefuse")
    for params in ({"op": "bevel", "params": {"cuts": 2}}, {"op": "extrude", "selection": {"kind": "faces", "indices": [99]}},
                   {"op": "bisect", "selection": {"kind": "faces", "indices": [0]}}, {"op": "subdivide", "selection": {"indices": [1]}}):
        doc = client.call("mesh_op", object="ERefuse", **params)
        assert doc["error"]["code"] == "invalid_params", (params, doc)
    client.ok("create_object", type="camera", name="ECam")
    assert client.call("mesh_op", object="ECam", op="triangulate")["error"]["code"] == "invalid_target"
    assert len(obj.data.vertices) == 8


def test_extruding_a_closed_region_moves_each_vertex_along_its_normal(client):
    # A whole cube's face normals cancel out: there is no one direction, so (as in
    # Blender's own extrude) the shell moves out along the vertex normals, one shell left.
    obj = cube(client, "EClosed")
    client.ok("mesh_op", object="EClosed", op="extrude", params={"offset": 0.5})
    assert len(obj.data.vertices) == 8 and len(obj.data.polygons) == 6
    corner = math.sqrt(3) + 0.5
    for v in obj.data.vertices:
        assert v.co.length == pytest.approx(corner, abs=1e-4)


def test_voxel_remesh_and_its_cost_cap(client):
    obj = cube(client, "ERemesh")
    r = client.ok("remesh_voxel", object="ERemesh", voxel_size=0.1)
    assert r["after"]["faces"] > 1000 and not obj.modifiers
    lo, hi = world_bbox(obj)
    assert hi[0] - lo[0] == pytest.approx(2.0, abs=0.15)
    cube(client, "EBigRemesh", size=100)
    assert client.call("remesh_voxel", object="EBigRemesh", voxel_size=0.0001)["error"]["code"] == "limit_exceeded"


def test_filters_smooth_inflate_flatten_randomize(client):
    def sphere(name):
        client.ok("create_object", type="ico_sphere", name=name)
        return bpy.data.objects[name]

    a = sphere("FSmooth")
    r = client.ok("mesh_filter", object="FSmooth", filter="smooth", strength=0.5, iterations=5)
    assert r["mean_displacement"] > 0 and max(v.co.length for v in a.data.vertices) < 1.0
    b = sphere("FInflate")
    client.ok("mesh_filter", object="FInflate", filter="inflate", strength=0.5)
    assert min(v.co.length for v in b.data.vertices) > 1.0
    c = sphere("FFlat")
    client.ok("mesh_filter", object="FFlat", filter="flatten", strength=1.0)
    spread = [max(v.co[i] for v in c.data.vertices) - min(v.co[i] for v in c.data.vertices) for i in range(3)]
    assert min(spread) == pytest.approx(0.0, abs=1e-4)
    d, e = sphere("FRand1"), sphere("FRand2")
    for name in ("FRand1", "FRand2"):
        client.ok("mesh_filter", object=name, filter="randomize", strength=0.3, seed=3)
    assert [tuple(v.co) for v in d.data.vertices] == [tuple(v.co) for v in e.data.vertices]
    assert client.call("mesh_filter", object="FFlat", filter="smooth", strength=0.5, seed=1)["error"]["code"] == "invalid_params"


def test_cleanup_merges_doubles_purges_orphans_and_shades(client):
    verts = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0], [0, 1, 0]]
    client.ok("create_mesh", name="CDoubled", vertices=verts, faces=[[0, 1, 2], [3, 4, 5]])
    r = client.ok("cleanup", action="merge_by_distance", object="CDoubled")
    assert r["before"]["vertices"] == 6 and r["after"]["vertices"] == 3 and r["removed_vertices"] == 3
    mat = bpy.data.materials.new("COrphanMat")
    assert mat.users == 0
    r = client.ok("cleanup", action="purge_orphans")
    assert "COrphanMat" in r["purged"]["materials"] and "COrphanMat" not in bpy.data.materials
    assert "COrphanMat" in r["delta"]["datablocks"]["materials"]["removed"]
    obj = cube(client, "CShade")
    client.ok("cleanup", action="shade_smooth", object="CShade")
    assert all(p.use_smooth for p in obj.data.polygons)
    client.ok("cleanup", action="shade_flat", object="CShade")
    assert not any(p.use_smooth for p in obj.data.polygons)
    client.ok("cleanup", action="shade_auto_smooth", object="CShade", angle=30)
    assert all(p.use_smooth for p in obj.data.polygons) and all(e.use_edge_sharp for e in obj.data.edges)
    assert client.call("cleanup", action="merge_by_distance")["error"]["code"] == "invalid_params"


def test_join_then_separate_by_loose_parts(client):
    a = cube(client, "JA", location=[0, 0, 30])
    cube(client, "JB", location=[5, 0, 30])
    r = client.ok("join_objects", objects=["JA", "JB"])
    assert r["mesh"]["vertices"] == 16 and r["delta"]["removed"] == ["JB"] and r["delta"]["changed"] == ["JA"]
    lo, hi = world_bbox(a)
    assert hi[0] == pytest.approx(6.0, abs=1e-4)
    r = client.ok("separate_object", object="JA", mode="LOOSE")
    assert len(r["new_objects"]) == 1 and r["delta"]["added"] == r["new_objects"]
    new = bpy.data.objects[r["new_objects"][0]]
    assert len(a.data.vertices) == 8 and len(new.data.vertices) == 8
    client.ok("create_object", type="camera", name="JCam")
    assert client.call("join_objects", objects=["JA", "JCam"])["error"]["code"] == "invalid_target"


def test_apply_transform_and_set_origin_keep_the_world_geometry(client):
    obj = cube(client, "TApply", location=[1, 2, 3], scale=[2, 1, 1], rotation=[0, 0, math.pi / 4])
    before = world_bbox(obj)
    r = client.ok("apply_transform", object="TApply", apply=["rotation", "scale"])
    assert r["scale"] == [1, 1, 1] and r["rotation"] == [0, 0, 0] and r["location"] == [1, 2, 3]
    after = world_bbox(obj)
    assert all(a == pytest.approx(b, abs=1e-4) for a, b in zip(before[0] + before[1], after[0] + after[1]))
    r = client.ok("set_origin", object="TApply", mode="world")
    assert r["location"] == [0, 0, 0]
    after2 = world_bbox(obj)
    assert all(a == pytest.approx(b, abs=1e-4) for a, b in zip(before[0] + before[1], after2[0] + after2[1]))
    r = client.ok("set_origin", object="TApply", mode="geometry")
    assert r["location"] == pytest.approx([1, 2, 3], abs=1e-4)
    child = cube(client, "TChild", location=[5, 5, 5])
    client.ok("parent_objects", parent="TApply", children=["TChild"])
    bpy.context.view_layer.update()
    w = child.matrix_world.translation.copy()
    client.ok("set_origin", object="TApply", mode="world")
    bpy.context.view_layer.update()
    assert (child.matrix_world.translation - w).length < 1e-4
    client.ok("create_object", type="light_point", name="TLamp")
    assert client.call("apply_transform", object="TLamp", apply=["scale"])["error"]["code"] == "invalid_target"


def test_the_other_variants_of_the_ops(client):
    client.ok("create_object", type="grid", name="EDissolve")
    r = client.ok("mesh_op", object="EDissolve", op="dissolve_limited", params={"angle": 5})
    assert r["before"]["faces"] == 100 and r["after"]["faces"] == 1
    verts = [[0, 0, 0], [1, 0, 0], [1.00001, 0, 0], [2, 0, 0]]
    client.ok("create_mesh", name="EWeld", vertices=verts, edges=[[0, 1], [2, 3]])
    r = client.ok("mesh_op", object="EWeld", op="merge", selection={"kind": "verts", "indices": [1, 2]}, params={"distance": 0.001})
    assert r["after"]["vertices"] == 3
    client.ok("create_mesh", name="EEdge", vertices=[[0, 0, 0], [1, 0, 0]], edges=[[0, 1]])
    r = client.ok("mesh_op", object="EEdge", op="extrude", selection={"kind": "edges", "indices": [0]}, params={"direction": [0, 0, 1]})
    assert r["after"] == {"vertices": 4, "edges": 4, "faces": 1}
    obj = bpy.data.objects["EEdge"]
    assert max(v.co.z for v in obj.data.vertices) == pytest.approx(1.0)
    client.ok("create_mesh", name="EVert", vertices=[[0, 0, 0]])
    r = client.ok("mesh_op", object="EVert", op="extrude", selection={"kind": "verts", "indices": [0]}, params={"offset": 2})
    assert r["after"]["vertices"] == 2 and r["after"]["edges"] == 1
    cube(client, "EInsetEach")
    r = client.ok("mesh_op", object="EInsetEach", op="inset", params={"width": 0.1, "individual": True})
    assert r["after"]["faces"] == 30
    cube(client, "EVBevel")
    r = client.ok("mesh_op", object="EVBevel", op="bevel", selection={"kind": "verts", "indices": [0]}, params={"width": 0.2, "vertex_only": True})
    assert r["after"]["faces"] == 7 and r["after"]["vertices"] == 10
    cube(client, "EDelVerts")
    r = client.ok("mesh_op", object="EDelVerts", op="delete", selection={"kind": "verts", "indices": [0]})
    assert r["after"]["vertices"] == 7 and r["after"]["faces"] == 3


def test_join_refuses_objects_outside_the_view_layer_and_changes_nothing(client):
    cube(client, "JX1")
    cube(client, "JX2", location=[3, 0, 0])
    client.ok("manage_collection", action="create", name="JExcluded", objects=["JX2"])
    bpy.context.view_layer.layer_collection.children["JExcluded"].exclude = True
    try:
        doc = client.call("join_objects", objects=["JX1", "JX2"])
        assert doc["error"]["code"] == "invalid_target" and "view layer" in doc["error"]["message"]
        assert "JX2" in bpy.data.objects and len(bpy.data.objects["JX1"].data.vertices) == 8
    finally:
        bpy.context.view_layer.layer_collection.children["JExcluded"].exclude = False
