"""Materials: presets, shader-graph edits, image inputs from read roots, baking,
assignment and listing, read back from real Blender (CATALOG section 3, material)."""

import os

import bpy
import pytest

from capstan_bridge.core import paths
from lookdev_support import EEVEE, FACTOR, error_code, fresh, no_changes, png_pixels, read_root, write_image  # noqa: F401

BASE = dict(color1=[0.9, 0.9, 0.9, 1], color2=[0.1, 0.1, 0.1, 1], scale=2, roughness=0.3, ior=1.5, density=0.2, emission_strength=4)


def build(client, name, preset, **extra):
    return client.ok("build_node_material", name=name, preset=preset, **dict(BASE, **extra))


def links_of(mat):
    return {(l.from_node.bl_idname, l.from_socket.name, l.to_node.bl_idname, l.to_socket.name) for l in mat.node_tree.links}


@pytest.mark.parametrize("preset", ["marble", "wood", "metal", "glass", "emissive", "concrete", "fabric", "volume_fog", "volume_fire"])
def test_every_preset_builds_a_connected_graph(fresh, preset):
    r = build(fresh, "P_" + preset, preset)
    assert r["created"] and r["delta"]["datablocks"]["materials"]["added"] == ["P_" + preset]
    mat = bpy.data.materials["P_" + preset]
    out = next(n for n in mat.node_tree.nodes if n.type == "OUTPUT_MATERIAL")
    socket = "Volume" if preset.startswith("volume") else "Surface"
    assert out.inputs[socket].is_linked, preset
    if preset in ("marble", "wood", "concrete"):
        assert ("ShaderNodeValToRGB", "Color", "ShaderNodeBsdfPrincipled", "Base Color") in links_of(mat)
    if preset == "glass":
        bsdf = mat.node_tree.nodes["Principled BSDF"]
        assert bsdf.inputs["Transmission Weight"].default_value == 1.0 and bsdf.inputs["IOR"].default_value == 1.5
    if preset == "emissive":
        em = next(n for n in mat.node_tree.nodes if n.type == "EMISSION")
        assert em.inputs["Strength"].default_value == 4
    if preset == "volume_fog":
        vol = next(n for n in mat.node_tree.nodes if n.type == "PRINCIPLED_VOLUME")
        assert vol.inputs["Density"].default_value == pytest.approx(0.2)


def test_rebuilding_a_preset_replaces_the_graph(fresh):
    build(fresh, "Re", "marble")
    r = build(fresh, "Re", "glass")
    assert not r["created"] and r["delta"]["datablocks"]["materials"]["changed"] == ["Re"]
    assert not any(n.type == "TEX_WAVE" for n in bpy.data.materials["Re"].node_tree.nodes)
    assert len(bpy.data.materials) == len(set(m.name for m in bpy.data.materials))


def test_a_bad_preset_or_name_changes_nothing(fresh):
    before = len(bpy.data.materials)
    assert error_code(fresh, "build_node_material", name="x", preset="lava", **BASE) == "invalid_params"
    assert error_code(fresh, "build_node_material", name="bad;name", preset="wood", **BASE) == "invalid_params"
    assert len(bpy.data.materials) == before


def test_assign_to_slots_and_faces(fresh):
    build(fresh, "A", "wood")
    build(fresh, "B", "metal")
    r = fresh.ok("assign_material", object="Cube", material="A")
    assert r["slots"] == ["A"] and r["delta"]["changed"] == ["Cube"] and "materials" in r["delta"]["fields"]["Cube"]
    r = fresh.ok("assign_material", object="Cube", material="B", slot=1, faces=[0, 2])
    assert r["slots"] == ["A", "B"] and r["faces_assigned"] == 2
    mesh = bpy.data.objects["Cube"].data
    assert [p.material_index for p in mesh.polygons] == [1, 0, 1, 0, 0, 0]
    assert error_code(fresh, "assign_material", object="Cube", material="A", slot=5) == "invalid_params"
    assert error_code(fresh, "assign_material", object="Cube", material="A", faces=[99]) == "invalid_params"
    assert error_code(fresh, "assign_material", object="Camera", material="A") == "invalid_target"
    assert error_code(fresh, "assign_material", object="Cube", material="Ghost") == "not_found"
    assert [p.material_index for p in mesh.polygons] == [1, 0, 1, 0, 0, 0]


def test_list_reads_values_and_users(fresh):
    build(fresh, "L", "metal", roughness=0.25)
    fresh.ok("assign_material", object="Cube", material="L")
    r = fresh.ok("list_materials", object="Cube")
    row = r["materials"][0]
    assert row["name"] == "L" and row["objects"] == ["Cube"] and row["metallic"] == 1.0 and row["preset"] == "metal"
    everything = fresh.ok("list_materials")
    assert {"L", "Material"} <= {m["name"] for m in everything["materials"]}
    used = fresh.ok("list_materials", include_unassigned=False)
    assert "Material" not in {m["name"] for m in used["materials"]}, "the factory material is unused once replaced"


def test_shader_graph_edits_and_info(fresh):
    build(fresh, "G", "glass")
    r = fresh.ok("shader_graph_edit", material="G", op="add_node", node_type="ShaderNodeTexNoise", name="Grain", location=[-300, 0])
    assert r["node"] == "Grain" and r["delta"]["datablocks"]["materials"]["changed"] == ["G"]
    # Named in the other Blender line's words: "Fac" (5.0's identifier), "Factor" (4.5's alias of 5.0's name).
    other = "Fac" if FACTOR == "Factor" else "Factor"
    fresh.ok("shader_graph_edit", material="G", op="connect", from_node="Grain", from_socket=other, to_node="Principled BSDF", to_socket="Roughness")
    tree = bpy.data.materials["G"].node_tree
    assert tree.nodes["Principled BSDF"].inputs["Roughness"].links[0].from_node.name == "Grain"
    fresh.ok("shader_graph_edit", material="G", op="set_input", node="Grain", input="Scale", value=12.5)
    assert tree.nodes["Grain"].inputs["Scale"].default_value == 12.5
    fresh.ok("shader_graph_edit", material="G", op="set_input", node="Principled BSDF", input="Base Color", value=[1, 0, 0])
    assert list(tree.nodes["Principled BSDF"].inputs["Base Color"].default_value) == [1, 0, 0, 1]
    fresh.ok("shader_graph_edit", material="G", op="add_node", node_type="ShaderNodeMath", name="M")
    fresh.ok("shader_graph_edit", material="G", op="set_property", node="M", property="operation", value="MULTIPLY")
    assert tree.nodes["M"].operation == "MULTIPLY"
    info = fresh.ok("shader_graph_info", material="G")
    assert "delta" not in info
    assert {"from_node": "Grain", "from_socket": FACTOR, "to_node": "Principled BSDF", "to_socket": "Roughness"} in info["links"]
    grain = next(n for n in info["nodes"] if n["name"] == "Grain")
    assert grain["type"] == "ShaderNodeTexNoise" and any(i["name"] == "Scale" and i["value"] == 12.5 for i in grain["inputs"])
    fresh.ok("shader_graph_edit", material="G", op="disconnect", to_node="Principled BSDF", to_socket="Roughness")
    assert not tree.nodes["Principled BSDF"].inputs["Roughness"].is_linked
    fresh.ok("shader_graph_edit", material="G", op="remove_node", node="Grain")
    assert "Grain" not in tree.nodes


def test_shader_graph_refusals_change_nothing(fresh):
    build(fresh, "G", "glass")
    mat = bpy.data.materials["G"]
    before = (len(mat.node_tree.nodes), len(mat.node_tree.links))
    for params, code in [
        (dict(op="add_node", node_type="ShaderNodeScript"), "invalid_params"),
        (dict(op="add_node", node_type="ShaderNodeTexIES"), "invalid_params"),
        (dict(op="add_node"), "invalid_params"),
        (dict(op="set_input", node="Principled BSDF", input="Roughness", value=3), "invalid_params"),
        (dict(op="set_input", node="Principled BSDF", input="Base Color", value=[2, 0, 0, 1]), "invalid_params"),
        (dict(op="set_input", node="Principled BSDF", input="Roughness", value=[1, 2]), "invalid_params"),
        (dict(op="set_property", node="Principled BSDF", property="name", value="x"), "invalid_target"),
        (dict(op="set_property", node="Principled BSDF", property="distribution", value="NOPE"), "invalid_params"),
        (dict(op="connect", from_node="Ghost", from_socket=0, to_node="Material Output", to_socket=0), "not_found"),
        (dict(op="connect", from_node="Principled BSDF", from_socket="Nope", to_node="Material Output", to_socket="Surface"), "not_found"),
        (dict(op="disconnect", to_node="Principled BSDF", to_socket="Roughness"), "not_found"),
        (dict(op="remove_node", node="Ghost"), "not_found"),
    ]:
        assert error_code(fresh, "shader_graph_edit", material="G", **params) == code, params
    assert (len(mat.node_tree.nodes), len(mat.node_tree.links)) == before
    assert error_code(fresh, "shader_graph_info", material="Ghost") == "not_found"


# -- read roots -----------------------------------------------------------------------

def test_read_roots_refuse_hostile_paths(fresh, read_root, tmp_path, bridge):
    good = write_image(read_root / "wood.png")
    outside = write_image(tmp_path / "secret.png")
    os.symlink(outside, read_root / "link_out.png")
    (read_root / "sub").mkdir()
    write_image(read_root / "sub" / "in.png")
    os.symlink(str(read_root / "sub" / "in.png"), read_root / "link_in.png")
    assert paths.read_roots(bridge.output_dir) == (os.path.realpath(bridge.output_dir), os.path.realpath(str(read_root)))
    images = len(bpy.data.images)
    for path, code in [
        (outside, "path_refused"),                                   # outside every root
        (str(read_root / "sub" / ".." / ".." / "secret.png"), "path_refused"),  # climbs out with ..
        (str(read_root / "sub" / ".." / "wood.png"), "path_refused"),  # .. is refused even when it stays inside
        (str(read_root / "link_out.png"), "path_refused"),           # a symlink out of the root
        ("inputs/wood.png", "path_refused"),                         # relative
        ("./wood.png", "path_refused"),
        (str(read_root / "absent.png"), "not_found"),                # inside, but absent
        (str(tmp_path / "absent.png"), "path_refused"),              # outside and absent: refused, no probing
        (str(read_root / "notes.txt"), "path_refused"),              # not an image
        ("/etc/passwd", "path_refused"),
    ]:
        assert error_code(fresh, "load_image", path=path) == code, path
    assert len(bpy.data.images) == images
    r = fresh.ok("load_image", path=good)
    assert r["created"] and r["path"] == os.path.realpath(good) and r["size"] == [8, 8]
    assert fresh.ok("load_image", path=str(read_root / "link_in.png"))["path"] == os.path.realpath(str(read_root / "sub" / "in.png"))


def test_roots_come_from_the_environment_and_the_output_folder(bridge, tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    monkeypatch.setenv(paths.READ_ROOTS_ENV, os.pathsep.join([str(a), "relative/ignored", str(tmp_path / "missing"), str(b), str(a)]))
    try:
        assert paths.configure_read_roots() == (os.path.realpath(str(a)), os.path.realpath(str(b)))
    finally:
        monkeypatch.delenv(paths.READ_ROOTS_ENV)
        paths.configure_read_roots()
    assert paths.read_roots(bridge.output_dir) == (os.path.realpath(bridge.output_dir),)


def test_a_bare_name_is_a_file_of_the_output_folder(fresh, bridge):
    write_image(os.path.join(bridge.output_dir, "rendered.png"))
    r = fresh.ok("load_image", path="rendered.png", color_space="Non-Color")
    assert r["path"] == os.path.join(os.path.realpath(bridge.output_dir), "rendered.png") and r["color_space"] == "Non-Color"
    again = fresh.ok("load_image", path="rendered.png")
    assert not again["created"] and again["image"] == r["image"]


def test_image_texture_drives_bsdf_inputs(fresh, read_root):
    tex = write_image(read_root / "albedo.png")
    build(fresh, "T", "metal")
    image = fresh.ok("load_image", path=tex)["image"]
    r = fresh.ok("bind_image_texture", material="T", image=image, input="Base Color", uv_map="UVMap", projection="BOX")
    tree = bpy.data.materials["T"].node_tree
    node = tree.nodes[r["node"]]
    assert node.image.name == image and node.projection == "BOX"
    assert tree.nodes["Principled BSDF"].inputs["Base Color"].links[0].from_node == node
    assert node.inputs["Vector"].links[0].from_node.uv_map == "UVMap"
    r = fresh.ok("bind_image_texture", material="T", image=image, input="Normal")
    assert r["via"] == "ShaderNodeNormalMap"
    assert tree.nodes["Principled BSDF"].inputs["Normal"].links[0].from_node.type == "NORMAL_MAP"
    r = fresh.ok("bind_image_texture", material="T", image=image, input="Displacement")
    out = next(n for n in tree.nodes if n.type == "OUTPUT_MATERIAL")
    assert out.inputs["Displacement"].links[0].from_node.type == "DISPLACEMENT"
    count = len(tree.nodes)
    fresh.ok("bind_image_texture", material="T", image=image, input="Base Color")
    assert len(tree.nodes) == count - 1, "re-binding an input replaces its nodes (the UV node is gone)"
    assert error_code(fresh, "bind_image_texture", material="T", image="Ghost", input="Alpha") == "not_found"
    build(fresh, "E", "emissive")
    assert error_code(fresh, "bind_image_texture", material="E", image=image, input="Alpha") == "invalid_target"


def test_bake_writes_a_non_uniform_png_and_restores_settings(fresh):
    sc = bpy.context.scene
    sc.render.engine = EEVEE
    build(fresh, "Bk", "marble", scale=4)
    fresh.ok("assign_material", object="Cube", material="Bk")
    r = fresh.ok("bake_texture", object="Cube", bake_type="diffuse", width=32, height=32, samples=1, margin=2, filename="cube_diffuse.png")
    assert r["delta"]["datablocks"]["images"]["added"] == ["cube_diffuse"]
    assert r["delta"]["datablocks"]["materials"]["changed"] == ["Bk"]
    assert r["delta"]["settings"] == [], "engine and samples restored"
    assert sc.render.engine == EEVEE
    w, h, px = png_pixels(r["path"])
    assert (w, h) == (32, 32)
    reds = px[0::4]
    assert max(reds) - min(reds) > 0.05, "the baked marble is not uniform"
    node = bpy.data.materials["Bk"].node_tree.nodes["capstan_bake"]
    assert node.image.name == "cube_diffuse"
    r = fresh.ok("bake_texture", object="Cube", bake_type="normal", width=16, height=16, samples=1, filename="cube_normal.png")
    assert bpy.data.images[r["image"]].colorspace_settings.name == "Non-Color"


def test_bake_refusals_change_nothing(fresh):
    images = len(bpy.data.images)
    assert error_code(fresh, "bake_texture", object="Camera", bake_type="ao", width=16, height=16, filename="x.png") == "invalid_target"
    fresh.ok("uv_layers", object="Cube", action="remove", name="UVMap")
    assert error_code(fresh, "bake_texture", object="Cube", bake_type="ao", width=16, height=16, filename="x.png") == "invalid_target"
    fresh.ok("reset_scene")
    assert error_code(fresh, "bake_texture", object="Cube", bake_type="ao", width=16, height=16, filename="../x.png") == "invalid_params"
    assert error_code(fresh, "bake_texture", object="Cube", bake_type="ao", width=8, height=16, filename="x.png") == "invalid_params"
    assert error_code(fresh, "bake_texture", object="Cube", bake_type="ao", width=16, height=16, filename="x.png", source=["Cube"]) == "invalid_params"
    assert len(bpy.data.images) == images


def test_list_one_material_with_its_graph(fresh):
    build(fresh, "Gr", "wood")
    r = fresh.ok("list_materials", material="Gr", include_graph=True)
    assert r["total"] == 1 and "delta" not in r
    graph = r["materials"][0]["graph"]
    assert {"name": "Principled BSDF", "type": "ShaderNodeBsdfPrincipled"} in graph["nodes"]
    assert {"from_node": "Principled BSDF", "from_socket": "BSDF", "to_node": "Material Output", "to_socket": "Surface"} in graph["links"]
    assert len(graph["links"]) == len(bpy.data.materials["Gr"].node_tree.links)
    assert error_code(fresh, "list_materials", material="Ghost") == "not_found"


def test_selected_to_active_bakes_a_source_onto_the_target(fresh):
    fresh.ok("create_object", type="uv_sphere", name="High", location=[0, 0, 0])
    fresh.ok("create_object", type="plane", name="Low", location=[0, 0, 0], scale=[1.5, 1.5, 1.5])
    build(fresh, "LowMat", "metal")
    fresh.ok("assign_material", object="Low", material="LowMat")
    selected = {o.name for o in bpy.context.view_layer.objects if o.select_get()}
    r = fresh.ok("bake_texture", object="Low", bake_type="normal", width=32, height=32, samples=1, source=["High"],
                 cage_extrusion=1.5, filename="low_normal.png")
    assert r["materials"] == ["LowMat"] and r["delta"]["changed"] == [] and r["delta"]["settings"] == []
    assert {o.name for o in bpy.context.view_layer.objects if o.select_get()} == selected
    assert not bpy.context.scene.render.bake.use_selected_to_active
    _, _, px = png_pixels(r["path"])
    reds = px[0::4]
    assert max(reds) - min(reds) > 0.1, "the sphere's curvature shows in the plane's normal map"
    assert error_code(fresh, "bake_texture", object="Low", bake_type="normal", width=16, height=16, source=["Light"], filename="x.png") == "invalid_target"
