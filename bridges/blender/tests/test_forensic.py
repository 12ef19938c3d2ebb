"""The forensic commands against real Blender (CATALOG §3 forensic): object counts and
names, proxy dimensions equal to the requested table row, ghost copies, and a proxy
keyed along waypoints sitting on each waypoint at its frame."""

import math

import bpy
import pytest
from mathutils import Vector


def _bounds(obj):
    pts = [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return [min(p[i] for p in pts) for i in range(3)], [max(p[i] for p in pts) for i in range(3)]


def test_a_straight_two_lane_road_with_markings(client):
    before = set(bpy.data.objects.keys())
    r = client.ok("build_road", name="FRoad", lanes=2, length=40, lane_width=3.5, location=[0, 0, 0])
    assert sorted(set(bpy.data.objects.keys()) - before) == ["FRoad", "FRoad Markings"]
    assert sorted(r["delta"]["added"]) == ["FRoad", "FRoad Markings"] and r["delta"]["changed"] == []
    assert sorted(r["delta"]["datablocks"]["materials"]["added"]) == ["FRoad Asphalt", "FRoad Paint"]
    road = bpy.data.objects["FRoad"]
    assert tuple(round(v, 4) for v in road.dimensions) == (40.0, 7.0, 0.0)
    # two edge lines, one solid centre line, no dashes on a two-lane road
    assert r["marking_pieces"] == 3 and r["width"] == 7.0
    lo, hi = _bounds(bpy.data.objects["FRoad Markings"])
    assert lo[2] > 0 and hi[1] < 3.5 and lo[1] > -3.5


def test_four_lanes_get_dashed_dividers_and_a_curve_bends_ninety_degrees(client):
    r = client.ok("build_road", name="FWide", lanes=4, length=45, lane_width=3)
    # 2 edges + 1 centre + 2 dashed dividers of 5 dashes (9 m period over 45 m)
    assert r["marking_pieces"] == 3 + 2 * 5
    r = client.ok("build_road", name="FBend", road_type="curve", length=30, lanes=1, markings=False)
    assert r["markings"] is None and r["delta"]["added"] == ["FBend"]
    radius = 2 * 30 / math.pi
    dims = bpy.data.objects["FBend"].dimensions
    assert dims.x == pytest.approx(radius + 1.75, abs=0.05) and dims.y == pytest.approx(radius + 1.75, abs=0.05)


def test_a_marked_curve_keeps_its_lines_on_the_road(client):
    r = client.ok("build_road", name="FBendMarked", road_type="curve", length=60, lanes=3, lane_width=3.5)
    # 2 edge lines + 2 dashed dividers (no centre line on an odd lane count) of 7 dashes over 60 m
    assert r["marking_pieces"] == 2 + 2 * 7
    road, marks = bpy.data.objects["FBendMarked"], bpy.data.objects["FBendMarked Markings"]
    radius = 2 * 60 / math.pi
    for v in marks.data.vertices:
        # every painted vertex lies within the road's annulus around the bend's centre (0, radius)
        d = math.hypot(v.co.x, v.co.y - radius)
        assert radius - 5.25 - 1e-6 <= d <= radius + 5.25 + 1e-6 and v.co.z == pytest.approx(0.005)
    assert len(road.data.polygons) == 32


def test_junctions_have_arms_and_a_centre_square(client):
    r = client.ok("build_road", name="FCross", road_type="intersection", length=30, lanes=2, lane_width=3.5)
    assert tuple(round(v, 3) for v in bpy.data.objects["FCross"].dimensions[:2]) == (30.0, 30.0)
    assert r["mesh"]["faces"] == 4 + 1 and r["marking_pieces"] == 4 * 3
    r = client.ok("build_road", name="FTee", road_type="t_junction", length=30, lanes=2, lane_width=3.5)
    dims = bpy.data.objects["FTee"].dimensions
    assert round(dims.x, 3) == 30.0 and round(dims.y, 3) == round(15 + 3.5, 3)
    assert r["marking_pieces"] == 3 * 3 + 1


def test_bad_road_arguments_change_nothing(client):
    before = len(bpy.data.objects), len(bpy.data.materials)
    for params in ({"lanes": 9}, {"road_type": "roundabout"}, {"length": 2}, {"name": "bad/name"},
                   {"road_type": "intersection", "lanes": 8, "lane_width": 5, "length": 20}):
        doc = client.call("build_road", **params)
        assert not doc["ok"] and doc["error"]["code"] == "invalid_params", (params, doc)
    assert (len(bpy.data.objects), len(bpy.data.materials)) == before


@pytest.mark.parametrize("kind,dims,pose", [
    ("vehicle", [4.8, 1.85, 1.45], None), ("vehicle", [12.0, 2.55, 3.2], None), ("two_wheeler", [2.1, 0.8, 1.1], None),
    ("figure", [0.3, 0.5, 1.75], "standing"), ("figure", [0.3, 0.5, 1.6], "walking"),
])
def test_proxies_fill_exactly_their_dimensions(client, kind, dims, pose):
    name = "FP %s %s %s" % (kind, dims[0], pose)
    extra = {"pose": pose} if pose else {}
    r = client.ok("place_proxy", name=name, kind=kind, dims=dims, location=[2, 3, 0], rotation=90, **extra)
    obj = bpy.data.objects[name]
    assert r["delta"]["added"] == [name]
    assert [round(v, 4) for v in obj.dimensions] == pytest.approx(dims, abs=1e-4)
    assert r["dimensions"] == pytest.approx(dims, abs=1e-4) and r["rotation"] == pytest.approx(90)
    assert obj.rotation_euler.z == pytest.approx(math.pi / 2)
    lo, hi = _bounds(obj)
    assert lo[2] == pytest.approx(0, abs=1e-5) and hi[2] == pytest.approx(dims[2], abs=1e-4)
    # rotated 90 degrees: the length runs along world Y, centred on the location
    assert hi[1] - lo[1] == pytest.approx(dims[0], abs=1e-4) and (lo[1] + hi[1]) / 2 == pytest.approx(3, abs=1e-4)
    assert list(obj["forensic_dims"]) == pytest.approx(dims)


def test_a_lying_figure_is_its_height_long(client):
    r = client.ok("place_proxy", name="FLying", kind="figure", dims=[0.3, 0.5, 1.8], pose="lying")
    assert r["dimensions"] == pytest.approx([1.8, 0.5, 0.3], abs=1e-4) and r["pose"] == "lying"


def test_damage_marks_the_impact_side(client):
    r = client.ok("place_proxy", name="FDamaged", kind="vehicle", dims=[4.5, 1.8, 1.5], damage_side="front", color=[0.1, 0.2, 0.8, 1])
    obj = bpy.data.objects["FDamaged"]
    assert [m.name for m in obj.data.materials] == ["FDamaged Paint", "FDamaged Damage"] and r["damaged_faces"] == 1
    marked = [p for p in obj.data.polygons if p.material_index == 1]
    assert len(marked) == 1 and marked[0].normal.x > 0.99 and marked[0].center.x == pytest.approx(2.25)
    r = client.ok("place_proxy", name="FSide", kind="vehicle", dims=[4.5, 1.8, 1.5], damage_side="left")
    side = [p for p in bpy.data.objects["FSide"].data.polygons if p.material_index == 1]
    assert len(side) == 1 and side[0].normal.y > 0.99 and r["damaged_faces"] == 1


def test_bad_proxies_change_nothing(client):
    before = len(bpy.data.objects)
    for params in ({"name": "X", "kind": "vehicle", "dims": [4, 2, 0]}, {"name": "X", "kind": "tank", "dims": [4, 2, 2]},
                   {"name": "X", "kind": "vehicle", "dims": [4, 2, 2], "pose": "lying"},
                   {"name": "X", "kind": "figure", "dims": [0.3, 0.5, 1.7], "damage_side": "front"},
                   {"name": "x;import os", "kind": "vehicle", "dims": [4, 2, 2]}):
        doc = client.call("place_proxy", **params)
        assert not doc["ok"] and doc["error"]["code"] == "invalid_params", (params, doc)
    assert len(bpy.data.objects) == before


def test_a_proxy_keyed_along_waypoints_is_on_each_waypoint_at_its_frame(client):
    client.ok("place_proxy", name="FCar", kind="vehicle", dims=[4.5, 1.8, 1.5])
    waypoints = [(1, [0, 0, 0]), (20, [10, 2, 0]), (40, [25, 8, 0])]
    for frame, loc in waypoints:
        client.ok("insert_keyframe", object="FCar", property="location", frame=frame, value=loc)
    client.ok("set_interpolation", object="FCar", interpolation="LINEAR")
    for frame, loc in waypoints:
        bpy.context.scene.frame_set(frame)
        assert list(bpy.data.objects["FCar"].matrix_world.translation) == pytest.approx(loc, abs=1e-5)
    bpy.context.scene.frame_set(30)
    assert list(bpy.data.objects["FCar"].matrix_world.translation) == pytest.approx([17.5, 5, 0], abs=1e-4)
    bpy.context.scene.frame_set(1)


def test_a_ghost_is_a_see_through_copy_with_its_own_mesh_and_optionally_no_animation(client):
    client.ok("place_proxy", name="FSrc", kind="vehicle", dims=[4.5, 1.8, 1.5], damage_side="rear")
    client.ok("insert_keyframe", object="FSrc", property="location", frame=1, value=[0, 0, 0])
    r = client.ok("ghost_copy", source="FSrc", alpha=0.25)
    ghost = bpy.data.objects["FSrc Ghost"]
    assert r["name"] == "FSrc Ghost" and r["animated"] and r["delta"]["added"] == ["FSrc Ghost"]
    assert ghost.data is not bpy.data.objects["FSrc"].data and [m.name for m in ghost.data.materials] == ["FSrc Ghost Material"]
    bsdf = ghost.data.materials[0].node_tree.nodes["Principled BSDF"]
    assert bsdf.inputs["Alpha"].default_value == pytest.approx(0.25)
    assert [round(v, 4) for v in ghost.dimensions] == pytest.approx([4.5, 1.8, 1.5])
    assert [m.name for m in bpy.data.objects["FSrc"].data.materials] == ["FSrc Paint", "FSrc Damage"]
    r = client.ok("ghost_copy", source="FSrc", name="FWhatIf", keep_animation=False)
    assert not r["animated"] and bpy.data.objects["FWhatIf"].animation_data is None
    assert bpy.data.objects["FSrc"].animation_data.action is not None
    doc = client.call("ghost_copy", source="Nope")
    assert doc["error"]["code"] == "not_found"
