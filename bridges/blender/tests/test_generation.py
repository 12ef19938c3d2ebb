"""The generation commands of blender-modeling against real Blender: evaluated
instance counts (deterministic per seed, capped), terrain height spans, node graphs."""

import bpy
import pytest


def test_terrain_spans_its_height_and_is_seeded(client):
    r = client.ok("create_terrain", name="GTerrain", size=20, subdivisions=16, height=3, seed=4)
    assert r["delta"]["added"] == ["GTerrain"] and r["mesh"]["vertices"] == 17 * 17
    zs = [v.co.z for v in bpy.data.objects["GTerrain"].data.vertices]
    assert min(zs) == pytest.approx(0.0, abs=1e-5) and max(zs) == pytest.approx(3.0, abs=1e-5)
    client.ok("create_terrain", name="GTerrain2", size=20, subdivisions=16, height=3, seed=4)
    client.ok("create_terrain", name="GTerrain3", size=20, subdivisions=16, height=3, seed=5)
    a, b, c = ([tuple(v.co) for v in bpy.data.objects[n].data.vertices] for n in ("GTerrain", "GTerrain2", "GTerrain3"))
    assert a == b and a != c
    info = client.ok("evaluated_stats", objects=["GTerrain"])["objects"][0]
    assert info["dimensions"] == pytest.approx([20, 20, 3], abs=1e-4)


def test_scatter_is_capped_seeded_and_evaluated(client):
    client.ok("create_object", type="plane", name="GGround", size=10)
    client.ok("create_object", type="ico_sphere", name="GPebble", size=0.2, location=[0, 0, -5])
    r = client.ok("scatter_instances", surface="GGround", instance="GPebble", density=5, seed=2, max_count=50)
    assert r["instances"] == 50 and r["area"] == pytest.approx(100.0)
    assert r["delta"]["changed"] == ["GGround"] and r["delta"]["datablocks"]["node_groups"]["added"] == [r["node_group"]]
    client.ok("create_object", type="plane", name="GGround2", size=10)
    r1 = client.ok("scatter_instances", surface="GGround2", instance="GPebble", density=0.5, seed=3, name="S1")
    client.ok("create_object", type="plane", name="GGround3", size=10)
    r2 = client.ok("scatter_instances", surface="GGround3", instance="GPebble", density=0.5, seed=3, name="S2")
    assert 0 < r1["instances"] < 1000 and r1["instances"] == r2["instances"] and r1["first_positions"] == r2["first_positions"]
    stats = client.ok("evaluated_stats", objects=["GGround2"])["objects"][0]
    assert stats["instances"] == r1["instances"]


def test_scatter_a_collection_and_refusals(client):
    client.ok("create_object", type="plane", name="GField", size=4)
    client.ok("create_object", type="cube", name="GTree", size=0.1)
    client.ok("manage_collection", action="create", name="GForest", objects=["GTree"])
    r = client.ok("scatter_instances", surface="GField", instance="GForest", density=2, seed=1)
    assert r["instances"] > 0
    assert client.call("scatter_instances", surface="GField", instance="GField")["error"]["code"] == "invalid_target"
    assert client.call("scatter_instances", surface="GField", instance="GTree", scale_min=2, scale_max=1)["error"]["code"] == "invalid_params"
    client.ok("create_object", type="plane", name="GHuge", size=1000)
    assert client.call("scatter_instances", surface="GHuge", instance="GTree", density=100)["error"]["code"] == "limit_exceeded"
    assert not any(m.type == "NODES" for m in bpy.data.objects["GHuge"].modifiers)


def test_geometry_graph_build_and_read(client):
    client.ok("create_object", type="cube", name="GGraph")
    r = client.ok("geometry_graph_edit", object="GGraph", action="add_modifier", name="GShape")
    assert r["links"] == 1 and r["delta"]["datablocks"]["node_groups"]["added"] == ["GShape"]
    r = client.ok("geometry_graph_edit", object="GGraph", action="add_node", node_type="GeometryNodeTransform", name="Lift")
    assert r["node"]["name"] == "Lift" and r["delta"]["datablocks"]["node_groups"]["changed"] == ["GShape"]
    client.ok("geometry_graph_edit", object="GGraph", action="connect", from_node="Group Input", from_socket="Geometry", to_node="Lift", to_socket="Geometry")
    r = client.ok("geometry_graph_edit", object="GGraph", action="connect", from_node="Lift", from_socket="Geometry", to_node="Group Output", to_socket="Geometry")
    assert r["links"] == 2  # the new link replaced input -> output
    client.ok("geometry_graph_edit", object="GGraph", action="set_input", node="Lift", socket="Translation", value=[0, 0, 2])
    stats = client.ok("evaluated_stats", objects=["GGraph"])["objects"][0]
    assert stats["bounds_min"][2] == pytest.approx(1.0) and stats["bounds_max"][2] == pytest.approx(3.0)
    client.ok("geometry_graph_edit", object="GGraph", action="add_node", node_type="ShaderNodeMath", name="Sum", properties={"operation": "MULTIPLY"})
    assert bpy.data.node_groups["GShape"].nodes["Sum"].operation == "MULTIPLY"
    info = client.ok("geometry_graph_info", object="GGraph")
    assert {n["name"] for n in info["nodes"]} == {"Group Input", "Group Output", "Lift", "Sum"} and len(info["links"]) == 2
    doc = client.call("geometry_graph_edit", object="GGraph", action="connect", from_node="Group Input", from_socket="Geometry", to_node="Sum", to_socket="Value")
    assert doc["error"]["code"] == "invalid_params" and "cannot feed" in doc["error"]["message"]
    doc = client.call("geometry_graph_edit", object="GGraph", action="connect", from_node="Group Input", from_socket="Geometry", to_node="Sum", to_socket="Value_001")
    assert doc["error"]["code"] == "invalid_params" and len(bpy.data.node_groups["GShape"].links) == 2
    for kind in ("GeometryNodeImportOBJ", "GeometryNodeBake", "GeometryNodeSimulationInput", "ShaderNodeBsdfPrincipled"):
        assert client.call("geometry_graph_edit", object="GGraph", action="add_node", node_type=kind)["error"]["code"] == "invalid_params", kind
    client.ok("geometry_graph_edit", object="GGraph", action="remove_node", node="Sum")
    assert "Sum" not in bpy.data.node_groups["GShape"].nodes
    assert client.call("geometry_graph_edit", object="GGraph", action="remove_node", node="Group Output")["error"]["code"] == "invalid_target"


def test_evaluated_stats_see_modifiers(client):
    client.ok("create_object", type="cube", name="GArr")
    client.ok("add_modifier", object="GArr", type="ARRAY", properties={"count": 3})
    s = client.ok("evaluated_stats", objects=["GArr"])["objects"][0]
    assert s["evaluated"]["vertices"] == 24 and s["original"]["vertices"] == 8 and s["dimensions"] == pytest.approx([6, 2, 2])
    assert s["triangles"] == 36


def test_a_refused_input_value_leaves_the_node_as_it_was(client):
    client.ok("create_object", type="cube", name="GRevert")
    client.ok("geometry_graph_edit", object="GRevert", action="add_modifier", name="GRevertTree")
    client.ok("geometry_graph_edit", object="GRevert", action="add_node", node_type="ShaderNodeMath", name="M")
    doc = client.call("geometry_graph_edit", object="GRevert", action="set_input", node="M", properties={"operation": "POWER"},
                      socket="Value", value="not a number")
    assert doc["error"]["code"] == "invalid_params"
    assert bpy.data.node_groups["GRevertTree"].nodes["M"].operation == "ADD"
    r = client.ok("geometry_graph_edit", object="GRevert", action="set_input", node="M", properties={"operation": "POWER"}, socket="Value", value=3)
    node = bpy.data.node_groups["GRevertTree"].nodes["M"]
    assert node.operation == "POWER" and node.inputs[0].default_value == 3 and r["node"]["inputs"][0]["value"] == 3
