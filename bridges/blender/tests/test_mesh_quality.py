"""mesh_quality against real Blender: a clean cube, a cube with a deleted face (its four
boundary edges), loose vertices and edges, a zero-area face, a flipped face, n-gons and
separate parts, measured on the evaluated mesh (a modifier's geometry counts)."""

import bpy  # noqa: I001 (bmesh is importable once bpy is loaded)
import bmesh


def cube(client, name, x):
    client.ok("create_object", type="cube", name=name, size=2.0, location=[x, 300, 0])
    return bpy.data.objects[name]


def edit(obj, fn):
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.faces.ensure_lookup_table()
    bm.verts.ensure_lookup_table()
    fn(bm)
    bm.to_mesh(obj.data)
    bm.free()
    obj.data.update()


def row(client, name, **extra):
    r = client.ok("mesh_quality", objects=[name], **extra)
    assert r["total"] == 1 and not r["truncated"]
    return r["objects"][0]


def test_a_clean_cube_has_no_problems(client):
    cube(client, "MqClean", 0)
    q = row(client, "MqClean")
    assert q["manifold"] and q["clean"]
    assert (q["vertices"], q["edges"], q["faces"], q["quads"], q["triangles"], q["ngons"], q["parts"]) == (8, 12, 6, 6, 0, 0, 1)
    for key in ("non_manifold_edges", "boundary_edges", "multi_face_edges", "loose_vertices", "loose_edges",
                "zero_area_faces", "inconsistent_normal_edges", "flipped_faces"):
        assert q[key] == 0, key
    assert q["examples"]["boundary_edges"] == []


def test_a_deleted_face_leaves_four_boundary_edges(client):
    obj = cube(client, "MqOpen", 10)
    edit(obj, lambda bm: bmesh.ops.delete(bm, geom=[bm.faces[0]], context="FACES_ONLY"))
    q = row(client, "MqOpen")
    assert not q["manifold"] and not q["clean"]
    assert (q["boundary_edges"], q["non_manifold_edges"], q["faces"]) == (4, 4, 5)
    assert len(q["examples"]["boundary_edges"]) == 4
    # A modifier that closes nothing keeps it open; the evaluated mesh is what is measured.
    sol = obj.modifiers.new("Solid", "SOLIDIFY")
    sol.thickness = 0.1
    try:
        q = row(client, "MqOpen")
        assert q["manifold"] and q["faces"] > 5, "solidify closes the shell into a manifold one"
    finally:
        obj.modifiers.clear()


def test_loose_geometry_zero_area_flipped_and_parts(client):
    obj = cube(client, "MqMess", 20)

    def mess(bm):
        bm.verts.new((5, 5, 5))  # loose vertex
        a, b = bm.verts.new((6, 0, 0)), bm.verts.new((7, 0, 0))
        bm.edges.new((a, b))  # loose edge (a part of its own)
        p = [bm.verts.new(c) for c in ((9, 0, 0), (9, 0, 0), (9, 0, 0))]
        bm.faces.new(p)  # zero-area triangle
        bm.faces.ensure_lookup_table()
        bmesh.ops.reverse_faces(bm, faces=[bm.faces[2]])  # one flipped face of the cube
        ng = [bm.verts.new(c) for c in ((0, 9, 0), (0.5, 9, 0), (0.75, 9.25, 0), (0.5, 9.5, 0), (0, 9.5, 0))]
        bm.faces.new(ng)  # a pentagon

    edit(obj, mess)
    q = row(client, "MqMess")
    assert (q["loose_vertices"], q["loose_edges"], q["zero_area_faces"]) == (1, 1, 1)
    assert q["inconsistent_normal_edges"] == 4 and q["flipped_faces"] == 1
    assert q["examples"]["flipped_faces"] == [2]
    assert (q["triangles"], q["quads"], q["ngons"]) == (1, 6, 1)
    assert q["parts"] == 5  # cube, loose vertex, loose edge, triangle, pentagon
    assert not q["clean"]
    # A larger epsilon counts more faces as degenerate.
    assert row(client, "MqMess", area_epsilon=0.3)["zero_area_faces"] == 1
    assert row(client, "MqMess", area_epsilon=0.5)["zero_area_faces"] == 2  # the pentagon is 0.3125 m^2


def test_every_mesh_by_default_and_declared_errors(client):
    cube(client, "MqAll", 30)
    r = client.ok("mesh_quality")
    names = [o["object"] for o in r["objects"]]
    assert "MqAll" in names and names == sorted(names)
    assert r["total"] == len([o for o in bpy.context.scene.objects if o.type == "MESH"])
    assert r["clean"] == all(o["clean"] for o in r["objects"])
    if "MqEmpty" not in bpy.data.objects:
        client.ok("create_object", type="empty", name="MqEmpty")
    assert client.call("mesh_quality", objects=["MqEmpty"])["error"]["code"] == "invalid_target"
    assert client.call("mesh_quality", objects=["MqGhost"])["error"]["code"] == "not_found"
    assert client.call("mesh_quality", objects=[])["error"]["code"] == "invalid_params"
