"""Spatial commands against real Blender, with known geometry (CATALOG §3 spatial):
a 2 m cube at z=1 over a plane rests on it; two cubes 1 m apart are 1 m apart and do
not collide; overlapping cubes collide (AABB and BVH). Far from the origin (x >= 100)
so other tests' objects are not hit."""

import math

import bpy
import pytest



def empty(client, name="SpEmpty"):
    """An object without geometry (the factory camera may be gone: other tests reset the scene)."""
    if name not in bpy.data.objects:
        client.ok("create_object", type="empty", name=name)
    return name

def cube(client, name, location, size=2.0, rotation=(0, 0, 0)):
    client.ok("create_object", type="cube", name=name, size=size, location=list(location), rotation=list(rotation))


def plane(client, name, location, size=10.0):
    client.ok("create_object", type="plane", name=name, size=size, location=list(location))


def test_raycast_hits_the_top_of_a_cube_and_misses_beside_it(client):
    cube(client, "SpRay", (100, 0, 1))
    r = client.ok("raycast", origin=[100, 0, 10], direction=[0, 0, -1])
    assert r["hit"] and r["object"] == "SpRay"
    assert r["location"] == pytest.approx([100, 0, 2], abs=1e-6)
    assert r["normal"] == pytest.approx([0, 0, 1], abs=1e-6) and r["distance"] == pytest.approx(8, abs=1e-6)
    r = client.ok("raycast", origin=[100, 0, 10], direction=[0, 0, -1], objects=["SpRay"], max_distance=5)
    assert r["hit"] is False
    r = client.ok("raycast", origin=[100, 0, 10], direction=[0, 0, -2], objects=["SpRay"])
    assert r["hit"] and r["location"][2] == pytest.approx(2, abs=1e-6) and r["face_index"] is not None
    doc = client.call("raycast", origin=[0, 0, 0], direction=[0, 0, 0])
    assert doc["error"]["code"] == "invalid_params"


def test_bounds_are_world_space_and_evaluated(client):
    cube(client, "SpBox", (110, 0, 1), rotation=(0, 0, math.pi / 4))
    r = client.ok("bounds_world", objects=["SpBox"])
    half = math.sqrt(2)
    assert r["min"] == pytest.approx([110 - half, -half, 0], abs=1e-5)
    assert r["max"] == pytest.approx([110 + half, half, 2], abs=1e-5)
    assert r["objects"][0]["axes"]["x"] == pytest.approx([math.sqrt(0.5), math.sqrt(0.5), 0], abs=1e-5)
    solid = bpy.data.objects["SpBox"].modifiers.new("Solid", "SOLIDIFY")  # evaluated geometry grows
    solid.thickness, solid.offset = 1.0, 0.0
    try:
        r = client.ok("bounds_world", objects=["SpBox"])
        assert r["dimensions"][2] > 2.5
    finally:
        bpy.data.objects["SpBox"].modifiers.clear()
    everything = client.ok("bounds_world")
    assert everything["objects_total"] >= 1 and everything["max"][0] >= 110 + half - 1e-5


def test_two_cubes_a_metre_apart(client):
    cube(client, "SpA", (120, 0, 1))
    cube(client, "SpB", (123, 0, 1))
    for method in ("bvh", "aabb"):
        r = client.ok("check_overlap", a="SpA", b="SpB", method=method)
        assert r["intersects"] is False and r["aabb_intersects"] is False, r
    r = client.ok("min_distance", a="SpA", b="SpB")
    assert r["distance"] == pytest.approx(1.0, abs=1e-6) and r["intersects"] is False
    assert r["point_a"][0] == pytest.approx(121, abs=1e-6) and r["point_b"][0] == pytest.approx(122, abs=1e-6)


def test_edge_to_edge_distance_is_exact(client):
    # Two cubes turned 45 degrees about different axes: the closest features are two
    # edges, which vertex-to-face sampling alone would overestimate.
    cube(client, "SpEdgeA", (125, 0, 1), rotation=(0, 0, math.pi / 4))
    cube(client, "SpEdgeB", (129, 0, 1), rotation=(math.pi / 4, 0, 0))
    r = client.ok("min_distance", a="SpEdgeA", b="SpEdgeB")
    # A's vertical edge is at x = 125 + sqrt(2); B's face at x = 128 (its X faces stay flat).
    assert r["distance"] == pytest.approx(128 - (125 + math.sqrt(2)), abs=1e-5)
    cube(client, "SpEdgeC", (129.5, 0, 1), rotation=(0, math.pi / 4, 0))
    r = client.ok("min_distance", a="SpEdgeA", b="SpEdgeC")
    # Vertical edge of A (x = 126.414, y=0, z in 0..2) and the Y-parallel edge of C at x = 128.086, z=1.
    assert r["distance"] == pytest.approx((129.5 - math.sqrt(2)) - (125 + math.sqrt(2)), abs=1e-5)


def test_overlapping_and_touching_and_contained_cubes(client):
    cube(client, "SpO1", (130, 0, 1))
    cube(client, "SpO2", (131, 0.5, 1.2))
    for method in ("bvh", "aabb"):
        r = client.ok("check_overlap", a="SpO1", b="SpO2", method=method)
        assert r["intersects"] is True, r
    assert client.ok("min_distance", a="SpO1", b="SpO2")["distance"] == 0
    cube(client, "SpTouch", (132, 0, 1))  # face to face with SpO1
    r = client.ok("check_overlap", a="SpO1", b="SpTouch")
    assert r["intersects"] is False and r["how"] is None
    cube(client, "SpInner", (130, 0, 1), size=0.5)
    r = client.ok("check_overlap", a="SpInner", b="SpO1")
    assert r["intersects"] is True and r["how"] == "a_inside_b"
    r = client.ok("min_distance", a="SpInner", b="SpO1")  # surfaces 0.75 m apart, one inside the other
    assert r["distance"] == pytest.approx(0.75, abs=1e-6) and r["contained"] == "a_inside_b" and r["intersects"] is False
    cube(client, "SpSunk", (135, 0, 0.9))
    plane(client, "SpFloor", (135, 0, 0))
    assert client.ok("check_overlap", a="SpSunk", b="SpFloor")["intersects"] is True
    assert client.ok("check_overlap", a="SpSunk", b="SpFloor", method="aabb")["intersects"] is True
    assert client.ok("check_overlap", a="SpSunk", b="SpFloor", tolerance=0.2)["intersects"] is False
    cube(client, "SpResting", (135, 3.5, 1))  # on the floor: touching, not colliding, by either method
    for method in ("bvh", "aabb"):
        assert client.ok("check_overlap", a="SpResting", b="SpFloor", method=method)["intersects"] is False


def test_objects_without_a_surface_are_measured_from_their_origin(client):
    cube(client, "SpHull", (140, 0, 1))
    lamp = "SpLamp"
    client.ok("create_object", type="light_point", name=lamp, location=[140, 0, 5])
    r = client.ok("min_distance", a=lamp, b="SpHull")
    assert r["distance"] == pytest.approx(3.0, abs=1e-6) and r["intersects"] is False and r["contained"] is None
    assert r["measured"] == {"a": "origin", "b": "surface"}
    assert r["point_a"] == pytest.approx([140, 0, 5], abs=1e-6) and r["point_b"] == pytest.approx([140, 0, 2], abs=1e-6)
    # An origin inside a closed surface, on the plane y=z through the cube's centre: a
    # single ray in that plane runs along a face's diagonal and counted it outside.
    client.ok("create_object", type="empty", name="SpInside", location=[140.5, 0, 1])
    r = client.ok("min_distance", a="SpHull", b="SpInside")
    assert r["distance"] == pytest.approx(0.5, abs=1e-6) and r["contained"] == "b_inside_a"
    assert r["measured"] == {"a": "surface", "b": "origin"}
    client.ok("create_object", type="empty", name="SpFar", location=[143, 4, 1])
    r = client.ok("min_distance", a="SpInside", b="SpFar")
    assert r["distance"] == pytest.approx(math.hypot(2.5, 4), abs=1e-6) and r["measured"] == {"a": "origin", "b": "origin"}
    doc = client.call("min_distance", a="SpInside", b="SpInside")
    assert doc["error"]["code"] == "invalid_params"


def test_origin_distances_follow_the_surface_not_its_box(client):
    # A light on the normal of a turned cube's face: 2*sqrt(2) from its centre, the face
    # 1 m from it; the cube's bounding box would be 0.83 m away.
    cube(client, "SpTurned", (150, 0, 1), rotation=(0, 0, math.pi / 4))
    client.ok("create_object", type="light_point", name="SpDiag", location=[152, 2, 1])
    r = client.ok("min_distance", a="SpDiag", b="SpTurned")
    assert r["distance"] == pytest.approx(2 * math.sqrt(2) - 1, abs=1e-5) and r["contained"] is None
    # An empty in a torus's hole: inside its box, outside its surface, 0.75 m from the
    # inner ring (less the facets' chord).
    client.ok("create_object", type="torus", name="SpRing", location=[160, 0, 1], primitive={"major_radius": 1.0, "minor_radius": 0.25})
    client.ok("create_object", type="empty", name="SpHole", location=[160, 0, 1])
    r = client.ok("min_distance", a="SpHole", b="SpRing")
    assert r["distance"] == pytest.approx(0.75, abs=0.005) and r["contained"] is None
    # Above an open plane: 3 m, and nothing encloses it.
    plane(client, "SpSheet", (170, 0, 0), size=2.0)
    client.ok("create_object", type="light_point", name="SpOver", location=[170, 0, 3])
    r = client.ok("min_distance", a="SpOver", b="SpSheet")
    assert r["distance"] == pytest.approx(3.0, abs=1e-6) and r["contained"] is None
    # An origin on a face is not inside.
    client.ok("create_object", type="empty", name="SpOnFace", location=[171, 0, 1])
    cube(client, "SpFaced", (170, 0, 1))
    assert client.ok("min_distance", a="SpOnFace", b="SpFaced")["contained"] is None
    # A faceless circle has no surface to measure to; an armature is neither a surface
    # nor a point.
    client.ok("create_object", type="circle", name="SpWire", location=[180, 0, 0])
    doc = client.call("min_distance", a="SpOver", b="SpWire")
    assert doc["error"]["code"] == "invalid_target" and "no faces" in doc["error"]["message"]
    rig = bpy.data.objects.new("SpRig", bpy.data.armatures.new("SpRig"))
    bpy.context.scene.collection.objects.link(rig)
    doc = client.call("min_distance", a="SpRig", b="SpFaced")
    assert doc["error"]["code"] == "invalid_target" and "ARMATURE" in doc["error"]["message"]


def test_place_on_rests_on_the_surface_found_by_raycast(client):
    empty(client)
    plane(client, "SpGround", (140, 0, 0))
    cube(client, "SpTable", (140, 0, 0.5), size=1.0)
    cube(client, "SpCup", (143, 2, 5), size=0.2)
    r = client.ok("place_on", object="SpCup", target="SpTable", dry_run=True)
    assert r["delta"]["changed"] == [] and bpy.data.objects["SpCup"].location.z == pytest.approx(5)
    r = client.ok("place_on", object="SpCup", target="SpTable")
    assert r["delta"]["changed"] == ["SpCup"] and r["support_z"] == pytest.approx(1.0, abs=1e-6)
    cup = bpy.data.objects["SpCup"]
    assert tuple(cup.location) == pytest.approx((140, 0, 1.1), abs=1e-6)
    b = client.ok("bounds_world", objects=["SpCup"])
    assert b["min"][2] == pytest.approx(1.0, abs=1e-6)
    assert client.ok("check_overlap", a="SpCup", b="SpTable")["intersects"] is False
    r = client.ok("place_on", object="SpCup", target="SpGround", align="keep_xy", offset_z=0.5)
    assert tuple(cup.location) == pytest.approx((140, 0, 0.6), abs=1e-6)
    doc = client.call("place_on", object="SpCup", target="SpEmpty")
    assert doc["error"]["code"] == "invalid_target"


def test_place_relative_by_world_bounds(client):
    cube(client, "SpAnchor", (150, 0, 1))
    cube(client, "SpMover", (160, 5, 7), size=1.0)
    mover = bpy.data.objects["SpMover"]
    client.ok("place_relative", object="SpMover", target="SpAnchor", relation="right_of", margin=0.1)
    assert tuple(mover.location) == pytest.approx((151.6, 0, 0.5), abs=1e-5)
    client.ok("place_relative", object="SpMover", target="SpAnchor", relation="in_front_of")
    assert tuple(mover.location) == pytest.approx((150, -1.55, 0.5), abs=1e-5)
    client.ok("place_relative", object="SpMover", target="SpAnchor", relation="below", margin=0)
    assert tuple(mover.location) == pytest.approx((150, 0, -0.5), abs=1e-5)
    client.ok("place_relative", object="SpMover", target="SpAnchor", relation="inside")
    assert client.ok("check_overlap", a="SpMover", b="SpAnchor")["how"] == "a_inside_b"
    doc = client.call("place_relative", object="SpAnchor", target="SpMover", relation="inside")
    assert doc["error"]["code"] == "invalid_target"


def test_mesh_stats_of_the_evaluated_mesh(client):
    empty(client)
    cube(client, "SpStats", (170, 0, 1))
    r = client.ok("mesh_stats", object="SpStats")
    assert (r["vertices"], r["faces"], r["triangles"], r["max_face_sides"], r["non_triangle_faces"], r["closed"]) == (8, 6, 12, 4, 6, True)
    bpy.data.objects["SpStats"].modifiers.new("Tri", "TRIANGULATE")
    try:
        r = client.ok("mesh_stats", object="SpStats")
        assert r["faces"] == 12 and r["non_triangle_faces"] == 0
    finally:
        bpy.data.objects["SpStats"].modifiers.clear()
    plane(client, "SpOpen", (170, 5, 0))
    assert client.ok("mesh_stats", object="SpOpen")["closed"] is False
    assert client.call("mesh_stats", object="SpEmpty")["error"]["code"] == "invalid_target"
