"""object.select's bridge command: every filter, the three modes, the active object,
what the answer and the delta say, and scene.info's selection. The fixture's bridge
runs in verification mode, so each delta is also checked against a whole-scene
snapshot."""

import bpy
import pytest

from lookdev_support import fresh  # noqa: F401


def selected():
    return sorted(o.name for o in bpy.context.view_layer.objects.selected)


def active():
    a = bpy.context.view_layer.objects.active
    return a.name if a else None


@pytest.fixture
def scene(fresh):  # noqa: F811
    """The factory scene (Cube selected and active) plus a few objects to pick from."""
    fresh.ok("create_object", type="uv_sphere", name="Ball")
    fresh.ok("create_object", type="cube", name="Crate")
    fresh.ok("create_object", type="empty", name="Marker")
    mat = bpy.data.materials.new("Red")
    for name in ("Ball", "Crate"):
        bpy.data.objects[name].data.materials.append(mat)
    bpy.data.objects["Crate"].modifiers.new("Sub", "SUBSURF").levels = 2
    coll = bpy.data.collections.new("Props")
    bpy.context.scene.collection.children.link(coll)
    coll.objects.link(bpy.data.objects["Marker"])
    return fresh


def test_the_factory_selection_is_read_back(scene):
    assert (selected(), active()) == (["Cube"], "Cube")
    info = scene.ok("get_scene_info")
    assert (info["selected"], info["active"], info["selected_total"]) == (["Cube"], "Cube", 1)


def test_replace_by_material_selects_only_its_users(scene):
    r = scene.ok("select_objects", material="Red")
    assert r["matched"] == ["Ball", "Crate"] and r["selected"] == ["Ball", "Crate"]
    assert selected() == ["Ball", "Crate"]
    assert r["active"] == "Cube" == active(), "replacing the selection leaves the active object as Blender does"
    assert r["delta"]["settings"] == ["selection"]
    assert r["delta"]["changed"] == [] and r["delta"]["added"] == [] and r["delta"]["removed"] == []


def test_extend_and_deselect(scene):
    scene.ok("select_objects", names=["Ball"])
    r = scene.ok("select_objects", type="EMPTY", mode="extend")
    assert r["selected"] == ["Ball", "Marker"] == selected()
    r = scene.ok("select_objects", pattern="B*", mode="deselect")
    assert r["matched"] == ["Ball"] and r["selected"] == ["Marker"] == selected()


def test_collection_modifier_and_pattern_filters(scene):
    assert scene.ok("select_objects", collection="Props")["selected"] == ["Marker"]
    assert scene.ok("select_objects", modifier="subsurf")["selected"] == ["Crate"]
    assert scene.ok("select_objects", pattern="C*", type="MESH")["selected"] == ["Crate", "Cube"]
    everything = scene.ok("select_objects", collection="Scene Collection")["selected"]
    assert everything == sorted(o.name for o in bpy.context.scene.objects)


def test_polycount_counts_the_evaluated_mesh(scene):
    # The crate is a 6-face cube subdivided twice: 96 evaluated faces, 6 original ones.
    r = scene.ok("select_objects", polycount={"min": 90, "max": 100})
    assert r["selected"] == ["Crate"] and r["polygons"] == {"Crate": 96}
    r = scene.ok("select_objects", polycount={"max": 6})
    assert r["selected"] == ["Cube"] and r["polygons"] == {"Cube": 6}
    highest = scene.ok("select_objects", polycount={"min": 0})["polygons"]
    assert max(highest, key=highest.get) == "Ball" and "Marker" not in highest


def test_active_is_set_and_selected(scene):
    r = scene.ok("select_objects", active="Marker")
    assert (r["active"], active()) == ("Marker", "Marker")
    assert r["selected"] == ["Cube", "Marker"] == selected(), "without a filter the selection stays, plus the active object"
    assert r["delta"]["settings"] == ["selection"]
    r = scene.ok("select_objects", names=["Ball"], active="Ball")
    assert (r["selected"], r["active"]) == (["Ball"], "Ball")


def test_selecting_what_is_selected_reports_no_change(scene):
    r = scene.ok("select_objects", names=["Cube"], active="Cube")
    assert r["delta"]["settings"] == []


def test_deselect_everything(scene):
    r = scene.ok("select_objects", pattern="*", mode="deselect")
    assert r["selected"] == [] == selected() and r["selected_total"] == 0


def test_bad_requests_are_refused_and_change_nothing(scene):
    before = (selected(), active())
    for params, code in [
        ({"names": ["Nope"]}, "not_found"),
        ({"material": "Nope"}, "not_found"),
        ({"collection": "Nope"}, "not_found"),
        ({"active": "Nope"}, "not_found"),
        ({"modifier": "NOT_A_MODIFIER"}, "invalid_params"),
        ({"polycount": {"min": 10, "max": 2}}, "invalid_params"),
        ({"mode": "extend"}, "invalid_params"),
        ({"type": "MESH", "mode": "toggle"}, "invalid_params"),
    ]:
        doc = scene.call("select_objects", **params)
        assert not doc["ok"] and doc["error"]["code"] == code, (params, doc)
    assert (selected(), active()) == before


def test_an_object_outside_the_view_layer_cannot_be_selected(scene):
    marker = bpy.data.objects["Marker"]
    for coll in [c for c in marker.users_collection if c.name != "Props"]:
        coll.objects.unlink(marker)
    bpy.context.view_layer.layer_collection.children["Props"].exclude = True
    doc = scene.call("select_objects", names=["Marker"])
    assert doc["error"]["code"] == "invalid_target"
    assert "Marker" not in scene.ok("select_objects", type="EMPTY")["matched"]


def test_other_commands_do_not_report_selection(scene):
    # Only commands that change the selection on purpose report it: deleting the
    # selected, active cube is a removal; a copy of a selected object is an addition.
    r = scene.ok("delete_object", name="Cube")
    assert r["delta"]["removed"] == ["Cube"] and r["delta"]["settings"] == []
    scene.ok("select_objects", names=["Ball"])
    r = scene.ok("duplicate_object", name="Ball")
    assert "selection" not in r["delta"]["settings"]
