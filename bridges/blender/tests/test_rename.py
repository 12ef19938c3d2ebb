"""object.rename's bridge command: every kind of datablock, Blender's own name rules
(the length limit read from the running Blender, `.001` on a clash), and deltas that
name everything that refers to the renamed datablock. The fixture's bridge runs in
verification mode: each delta is checked against a whole-scene snapshot."""

import bpy
import pytest

from lookdev_support import fresh  # noqa: F401

# What the running Blender keeps, in bytes: 63 in 4.5, 255 from 5.0.
LIMIT = 63 if bpy.app.version < (5, 0, 0) else 255


@pytest.fixture
def scene(fresh):  # noqa: F811
    return fresh


def test_the_limit_is_read_from_blender(scene):
    r = scene.ok("rename_datablock", kind="object", name="Cube", new_name="Box")
    assert r["max_name_bytes"] == LIMIT
    assert (r["previous"], r["name"], r["clashed"]) == ("Cube", "Box", False)
    assert "Box" in bpy.data.objects and "Cube" not in bpy.data.objects
    assert r["delta"]["renamed"] == {"Box": "Cube"} and r["delta"]["changed"] == ["Box"]


@pytest.mark.parametrize("kind,make", [
    ("material", lambda: bpy.data.materials.new("Mat")),
    ("collection", lambda: bpy.data.collections.new("Coll")),
    ("mesh", lambda: bpy.data.meshes.new("MeshData")),
    ("curve", lambda: bpy.data.curves.new("CurveData", "CURVE")),
    ("image", lambda: bpy.data.images.new("Img", 4, 4)),
    ("node_group", lambda: bpy.data.node_groups.new("Group", "GeometryNodeTree")),
    ("action", lambda: bpy.data.actions.new("Act")),
    ("world", lambda: bpy.data.worlds.new("Sky")),
    ("camera", lambda: bpy.data.cameras.new("Lens")),
    ("light", lambda: bpy.data.lights.new("Lamp", "POINT")),
])
def test_every_kind_renames_and_reads_back(scene, kind, make):
    block = make()
    old = block.name
    r = scene.ok("rename_datablock", kind=kind, name=old, new_name="Renamed " + kind)
    assert r["name"] == "Renamed " + kind == block.name and r["previous"] == old


def test_a_clash_answers_the_name_blender_gave(scene):
    bpy.data.materials.new("Red")
    blue = bpy.data.materials.new("Blue")
    r = scene.ok("rename_datablock", kind="material", name="Blue", new_name="Red")
    assert (r["name"], r["requested"], r["clashed"]) == ("Red.001", "Red", True)
    assert blue.name == "Red.001" and "Red" in bpy.data.materials
    assert r["delta"]["datablocks"]["materials"]["changed"] == ["Red.001"]


def test_the_longest_name_fits_and_one_byte_more_is_refused(scene):
    longest = "n" * LIMIT
    r = scene.ok("rename_datablock", kind="object", name="Cube", new_name=longest)
    assert r["name"] == longest and not r["clashed"]
    doc = scene.call("rename_datablock", kind="object", name=longest, new_name="n" * (LIMIT + 1))
    assert doc["error"]["code"] == "invalid_params" and str(LIMIT) in doc["error"]["message"]
    # Bytes, not characters: a two-byte letter counts twice.
    doc = scene.call("rename_datablock", kind="object", name=longest, new_name="é" * (LIMIT // 2 + 1))
    assert doc["error"]["code"] == "invalid_params"
    assert longest in bpy.data.objects, "a refused rename changes nothing"


def test_a_clash_at_the_longest_name_still_answers_what_it_got(scene):
    longest = "x" * LIMIT
    bpy.data.materials.new(longest)
    other = bpy.data.materials.new("Other")
    r = scene.ok("rename_datablock", kind="material", name="Other", new_name=longest)
    # Blender shortens the name to keep it unique within the limit (5.2: one letter
    # less; 4.5: a shorter stem with .001); the answer says what it got.
    assert r["clashed"] and r["name"] != longest and r["name"] == other.name
    assert len(r["name"].encode()) <= LIMIT and longest in bpy.data.materials


def test_renaming_what_others_refer_to_reports_them(scene):
    # The material is on the cube's mesh, the image in the material's node tree, the
    # mesh is the cube's data, the collection holds the cube, the action animates it.
    cube = bpy.data.objects["Cube"]
    mat = cube.data.materials[0]
    image = bpy.data.images.new("Tex", 4, 4)
    if bpy.app.version < (5, 0, 0):
        mat.use_nodes = True
    node = mat.node_tree.nodes.new("ShaderNodeTexImage")
    node.image = image
    r = scene.ok("rename_datablock", kind="material", name=mat.name, new_name="Paint")
    assert r["delta"]["changed"] == ["Cube"] and r["delta"]["datablocks"]["materials"]["changed"] == ["Paint"]
    r = scene.ok("rename_datablock", kind="image", name="Tex", new_name="Texture")
    assert r["delta"]["datablocks"]["materials"]["changed"] == ["Paint"]
    assert r["delta"]["datablocks"]["images"]["changed"] == ["Texture"]
    r = scene.ok("rename_datablock", kind="mesh", name=cube.data.name, new_name="CubeMesh")
    assert r["delta"]["changed"] == ["Cube"] and cube.data.name == "CubeMesh"
    r = scene.ok("rename_datablock", kind="collection", name="Collection", new_name="Stuff")
    assert "Cube" in r["delta"]["changed"] and r["delta"]["settings"] == ["scene"]
    scene.ok("insert_keyframe", object="Cube", property="location", frame=1)
    action = cube.animation_data.action
    r = scene.ok("rename_datablock", kind="action", name=action.name, new_name="Move")
    assert r["delta"]["changed"] == ["Cube"] and action.name == "Move"
    r = scene.ok("rename_datablock", kind="world", name=bpy.context.scene.world.name, new_name="Studio")
    assert "world" in r["delta"]["settings"] and bpy.context.scene.world.name == "Studio"
    r = scene.ok("rename_datablock", kind="camera", name=bpy.data.objects["Camera"].data.name, new_name="Lens")
    assert r["delta"]["changed"] == ["Camera"]


def test_renaming_a_parent_or_a_target_reports_who_names_it(scene):
    scene.ok("create_object", type="empty", name="Pivot")
    scene.ok("parent_objects", parent="Pivot", children=["Cube"])
    scene.ok("add_constraint", object="Camera", type="TRACK_TO", target="Pivot")
    r = scene.ok("rename_datablock", kind="object", name="Pivot", new_name="Hinge")
    assert r["delta"]["changed"] == ["Camera", "Cube", "Hinge"]


def test_bad_requests_are_refused(scene):
    for params, code in [
        ({"kind": "material", "name": "Nope", "new_name": "X"}, "not_found"),
        ({"kind": "object", "name": "Cube", "new_name": "   "}, "invalid_params"),
        ({"kind": "object", "name": "Cube", "new_name": "a\nb"}, "invalid_params"),
        ({"kind": "texture", "name": "Cube", "new_name": "X"}, "invalid_params"),
        ({"kind": "object", "name": "Cube", "new_name": ""}, "invalid_params"),
    ]:
        doc = scene.call("rename_datablock", **params)
        assert not doc["ok"] and doc["error"]["code"] == code, (params, doc)
    assert "Cube" in bpy.data.objects


def test_the_same_name_changes_nothing(scene):
    r = scene.ok("rename_datablock", kind="object", name="Cube", new_name="Cube")
    assert r["name"] == "Cube" and not r["clashed"] and r["delta"]["changed"] == []


def test_renaming_a_node_group_and_a_world_image_reports_their_users(scene):
    cube = bpy.data.objects["Cube"]
    group = bpy.data.node_groups.new("Deform", "GeometryNodeTree")
    cube.modifiers.new("GN", "NODES").node_group = group
    r = scene.ok("rename_datablock", kind="node_group", name="Deform", new_name="Wobble")
    assert r["delta"]["changed"] == ["Cube"] and r["delta"]["datablocks"]["node_groups"]["changed"] == ["Wobble"]
    world = bpy.context.scene.world
    if bpy.app.version < (5, 0, 0):
        world.use_nodes = True
    env = world.node_tree.nodes.new("ShaderNodeTexEnvironment")
    env.image = bpy.data.images.new("Sky", 4, 4)
    r = scene.ok("rename_datablock", kind="image", name="Sky", new_name="Studio HDRI")
    assert r["delta"]["datablocks"]["worlds"]["changed"] == [world.name]
    assert "world" in r["delta"]["settings"] and env.image.name == "Studio HDRI"
