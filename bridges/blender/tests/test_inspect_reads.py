"""Inspect reads against real Blender (CATALOG §3 inspect): paged mesh data, scene graph
views, diagnostics, .blend bookkeeping, live RNA, and a small preview render decoded as
a PNG (size, pixel variance > 0, empty delta: the verification mode, on in every test,
fails a read that leaves any change). Objects live far from the origin (x >= 300)."""

import base64
import struct
import zlib

import bpy
import pytest


def cube(client, name, location, size=2.0):
    if name not in bpy.data.objects:
        client.ok("create_object", type="cube", name=name, size=size, location=list(location))


def test_mesh_summary_and_pages_of_a_cube(client):
    cube(client, "InCube", (300, 0, 0))
    r = client.ok("mesh_inspect", object="InCube")
    assert r["summary"]["vertices"] == 8 and r["summary"]["faces"] == 6 and r["summary"]["triangles"] == 12
    assert r["summary"]["edges"] == 12 and r["summary"]["loops"] == 24
    p = client.ok("mesh_inspect", object="InCube", action="vertices", offset=0, limit=5)
    assert len(p["rows"]) == 5 and p["page"] == {"offset": 0, "limit": 5, "total": 8, "next_offset": 5}
    p2 = client.ok("mesh_inspect", object="InCube", action="vertices", offset=5, limit=5)
    assert [row["index"] for row in p2["rows"]] == [5, 6, 7] and p2["page"]["next_offset"] is None
    assert all(abs(c) == pytest.approx(1.0) for row in p["rows"] for c in row["co"])
    faces = client.ok("mesh_inspect", object="InCube", action="faces", limit=10)
    assert faces["page"]["total"] == 6 and all(len(f["vertices"]) == 4 and f["area"] == pytest.approx(4.0) for f in faces["rows"])
    edges = client.ok("mesh_inspect", object="InCube", action="edges")
    assert edges["page"]["total"] == 12 and all(len(e["vertices"]) == 2 for e in edges["rows"])
    normals = client.ok("mesh_inspect", object="InCube", action="normals", limit=1)
    assert sum(abs(c) for c in normals["rows"][0]["normal"]) == pytest.approx(3 ** 0.5, abs=1e-4)


def test_mesh_uvs_attributes_selection_groups_and_shape_keys(client):
    cube(client, "InCube2", (305, 0, 0))
    obj = bpy.data.objects["InCube2"]
    me = obj.data
    uvs = client.ok("mesh_inspect", object="InCube2", action="uvs", limit=24)
    assert uvs["page"]["total"] == 24 and all(0 <= c <= 1 for row in uvs["rows"] for c in row["uv"])
    assert uvs["rows"][0]["face"] == 0 and uvs["rows"][23]["face"] == 5
    attr = client.ok("mesh_inspect", object="InCube2", action="attributes", attribute_name="position", limit=2)
    assert attr["page"]["total"] == 8 and len(attr["rows"][0]["value"]) == 3
    # Test-side setup through bpy (a read must see it; tests may change the scene directly).
    for v in me.vertices:
        v.select = v.index in (1, 3)
    group = obj.vertex_groups.new(name="InGroup")
    group.add([2, 4], 0.5, "REPLACE")
    obj.shape_key_add(name="Basis")
    obj.shape_key_add(name="Lift").value = 0.25
    sel = client.ok("mesh_inspect", object="InCube2", action="vertices", selected_only=True)
    assert [row["index"] for row in sel["rows"]] == [1, 3] and sel["page"]["total"] == 2
    w = client.ok("mesh_inspect", object="InCube2", action="group_weights", group_name="InGroup")
    assert w["rows"] == [{"index": 2, "weight": 0.5}, {"index": 4, "weight": 0.5}]
    keys = client.ok("mesh_inspect", object="InCube2", action="shape_keys")
    assert [k["name"] for k in keys["rows"]] == ["Basis", "Lift"] and keys["rows"][1]["key_value"] == pytest.approx(0.25)
    summary = client.ok("mesh_inspect", object="InCube2")["summary"]
    assert summary["vertex_groups"] == ["InGroup"] and summary["selected_vertices"] == 2 and summary["shape_keys"] == ["Basis", "Lift"]


def test_mesh_inspect_errors(client):
    cube(client, "InCube", (300, 0, 0))
    assert client.call("mesh_inspect", object="Ghost")["error"]["code"] == "not_found"
    assert client.call("mesh_inspect", object="InCube", action="group_weights")["error"]["code"] == "invalid_params"
    assert client.call("mesh_inspect", object="InCube", action="group_weights", group_name="Nope")["error"]["code"] == "not_found"
    assert client.call("mesh_inspect", object="InCube", limit=5001)["error"]["code"] == "invalid_params"
    client.ok("create_object", type="empty", name="InEmpty")
    assert client.call("mesh_inspect", object="InEmpty")["error"]["code"] == "invalid_target"


def test_scene_inspect_views(client):
    cube(client, "InParent", (310, 0, 0))
    cube(client, "InChild", (312, 0, 0))
    bpy.data.objects["InChild"].parent = bpy.data.objects["InParent"]
    bpy.data.objects["InParent"].modifiers.new("Sub", "SUBSURF").levels = 1
    h = client.ok("scene_inspect", view="hierarchy")
    names = [e["name"] for e in h["entries"]]
    assert names.index("InParent") + 1 == names.index("InChild")
    child = next(e for e in h["entries"] if e["name"] == "InChild")
    assert child["parent"] == "InParent" and child["depth"] == 1
    m = client.ok("scene_inspect", view="modifiers", object="InParent")
    assert m["entries"][0]["items"] == [{"name": "Sub", "type": "SUBSURF", "enabled": True}]
    t = client.ok("scene_inspect", view="topology", object="InParent")["entries"][0]["topology"]
    assert t["vertices"] == 8 and t["evaluated_vertices"] == 26
    mats = client.ok("scene_inspect", view="materials", object="InParent")
    assert mats["entries"][0]["items_total"] == len(bpy.data.objects["InParent"].material_slots)
    assert client.call("scene_inspect", view="constraints", object="Ghost")["error"]["code"] == "not_found"


def test_diagnostics_and_blendfile_summary(client):
    d = client.ok("scene_diagnostics")
    assert d["schema_version"] == 2 and d["objects_total"] == len(bpy.context.scene.objects)
    assert d["lights_total"] == sum(1 for o in bpy.context.scene.objects if o.type == "LIGHT")
    assert d["render"]["engine"] == bpy.context.scene.render.engine
    counts = client.ok("blendfile_summary", view="datablocks")["counts"]
    assert counts["objects"] == len(bpy.data.objects) and counts["meshes"] == len(bpy.data.meshes)
    img = bpy.data.images.new("InMissing", 4, 4)
    img.filepath = "/nonexistent/capstan/missing.png"
    img.source = "FILE"
    try:
        files = client.ok("blendfile_summary", view="missing_files")["files"]
        assert {"kind": "images", "name": "InMissing", "filepath": "/nonexistent/capstan/missing.png"} in files
    finally:
        bpy.data.images.remove(img)
    assert client.ok("blendfile_summary", view="linked_libraries")["total"] == len(bpy.data.libraries)
    assert client.ok("blendfile_summary", view="paths")["paths"]["version"] == bpy.app.version_string


def test_rna_search_and_describe(client):
    r = client.ok("rna_search", query="subsurfmodifier")
    assert any(t["name"] == "SubsurfModifier" and t["base"] == "Modifier" for t in r["types"])
    d = client.ok("rna_describe", type_name="SubsurfModifier", query="levels")
    levels = next(p for p in d["properties"] if p["identifier"] == "levels")
    assert levels["type"] == "INT" and levels["min"] == 0
    q = client.ok("rna_describe", type_name="SubsurfModifier", query="subdivision_type")["properties"][0]
    assert {i["identifier"] for i in q["enum_items"]} >= {"CATMULL_CLARK", "SIMPLE"}
    page = client.ok("rna_describe", type_name="Object", limit=3)
    assert len(page["properties"]) == 3 and page["page"]["total"] > 50 and page["page"]["next_offset"] == 3
    assert client.call("rna_describe", type_name="NoSuchType")["error"]["code"] == "not_found"


def _png(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", None, None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 6
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def _variance(rows):
    vals = [v for row in rows for i, v in enumerate(row) if i % 4 != 3]
    mean = sum(vals) / len(vals)
    return sum((v - mean) ** 2 for v in vals) / len(vals)


def test_preview_without_a_camera_uses_and_removes_a_temporary_one(client):
    cube(client, "InCube", (300, 0, 0))
    sc = bpy.context.scene
    saved_camera = sc.camera
    sc.camera = None
    before = (sc.render.resolution_x, sc.render.resolution_y, sc.render.engine, sc.render.filepath, sc.cycles.samples,
              len(bpy.data.objects), len(bpy.data.cameras), len(bpy.data.images))
    try:
        r = client.ok("render_preview", width=64, height=48, samples=2)
        assert r["temporary_camera"] is True and r["width"] == 64 and r["height"] == 48
        w, h, rows = _png(base64.b64decode(r["image_base64"]))
        assert (w, h) == (64, 48) and _variance(rows) > 0
        after = (sc.render.resolution_x, sc.render.resolution_y, sc.render.engine, sc.render.filepath, sc.cycles.samples,
                 len(bpy.data.objects), len(bpy.data.cameras), len(bpy.data.images))
        assert after == before and sc.camera is None
    finally:
        sc.camera = saved_camera


def test_preview_through_a_named_camera_and_errors(client):
    client.ok("create_object", type="camera", name="InCam", location=[300, -8, 2])
    cam = bpy.data.objects["InCam"]
    cam.rotation_euler = (1.4, 0, 0)
    cube(client, "InCube", (300, 0, 0))
    r = client.ok("render_preview", width=32, height=32, samples=1, camera="InCam")
    assert r["camera"] == "InCam" and r["temporary_camera"] is False and r["engine"] == "CYCLES"
    w, h, rows = _png(base64.b64decode(r["image_base64"]))
    assert (w, h) == (32, 32)
    assert client.call("render_preview", camera="Ghost")["error"]["code"] == "not_found"
    assert client.call("render_preview", camera="InCube")["error"]["code"] == "invalid_target"
    assert client.call("render_preview", width=2048)["error"]["code"] == "invalid_params"
