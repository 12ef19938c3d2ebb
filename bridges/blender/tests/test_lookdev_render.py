"""Frame sequences, colour management and the render configuration, against real
Blender (CATALOG section 3, render): 32x32, 1 spp, 3 frames, PNGs counted."""

import os

import bpy

from lookdev_support import error_code, fresh, png_pixels  # noqa: F401


def small(client):
    client.ok("set_render_settings", engine="cycles", resolution_x=32, resolution_y=32, samples=1)


def test_a_frame_range_renders_a_png_sequence(fresh, bridge):
    small(fresh)
    sc = bpy.context.scene
    sc.frame_current = 7
    r = fresh.ok("render_frames", frame_start=1, frame_end=5, step=2, pattern="seq_###")
    assert r["files"] == ["seq_001.png", "seq_003.png", "seq_005.png"] and r["frames"] == [1, 3, 5]
    for name in r["files"]:
        w, h, _ = png_pixels(os.path.join(bridge.output_dir, name))
        assert (w, h) == (32, 32)
    assert sc.frame_current == 7 and r["delta"]["settings"] == [], "frame and settings restored"
    assert r["path"] == os.path.join(bridge.output_dir, "seq_001.png")


def test_frame_range_refusals(fresh):
    small(fresh)
    assert error_code(fresh, "render_frames", frame_start=5, frame_end=1) == "invalid_params"
    assert error_code(fresh, "render_frames", frame_start=1, frame_end=5000) == "limit_exceeded"
    assert error_code(fresh, "render_frames", frame_start=1, frame_end=2, pattern="../x_##") == "invalid_params"
    assert error_code(fresh, "render_frames", frame_start=1, frame_end=2, pattern="no_hashes") == "invalid_params"
    fresh.ok("delete_object", name="Camera")
    assert error_code(fresh, "render_frames", frame_start=1, frame_end=2) == "no_camera"


def test_colour_management(fresh):
    view = bpy.context.scene.view_settings
    r = fresh.ok("set_color_management", view_transform="AgX", look="Punchy", exposure=0.5, gamma=1.2)
    assert (view.view_transform, view.look) == ("AgX", "AgX - Punchy") and view.exposure == 0.5
    assert r["delta"]["settings"] == ["render"]
    fresh.ok("set_color_management", view_transform="Standard")
    assert view.look == "None"
    assert error_code(fresh, "set_color_management", look="Nonexistent Look") == "invalid_params"
    assert view.view_transform == "Standard" and view.look == "None"
    assert error_code(fresh, "set_color_management", exposure=20) == "invalid_params"
    fresh.ok("set_color_management", view_transform="Khronos PBR Neutral")
    assert view.view_transform == "Khronos PBR Neutral"


def test_render_config_reads_without_changing(fresh):
    small(fresh)
    fresh.ok("set_camera_dof", camera="Camera", enabled=True, fstop=2)
    r = fresh.ok("render_config")
    assert "delta" not in r
    assert r["engine"] == "CYCLES" and r["samples"] == 1 and r["resolution"] == [32, 32] and r["dof"] and r["fstop"] == 2
    assert r["camera"] == "Camera" and r["file_format"] == "PNG"


# The compositor is a node group from Blender 5.0, the scene's own node tree in 4.5 LTS.
GROUPS = bpy.app.version >= (5, 0, 0)
OUTPUT_NAME, OUTPUT_TYPE = ("Group Output", "NodeGroupOutput") if GROUPS else ("Composite", "CompositorNodeComposite")


def comp_tree():
    sc = bpy.context.scene
    return sc.compositing_node_group if GROUPS else (sc.node_tree if sc.use_nodes else None)


def comp_links():
    return {(l.from_node.bl_idname, l.to_node.bl_idname, l.to_socket.name) for l in comp_tree().links}


def glare_type(node):
    if GROUPS:
        return node.inputs["Type"].default_value
    return node.bl_rna.properties["glare_type"].enum_items[node.glare_type].name


def assert_graph_changed(delta, added):
    """The graph's change is in the delta: from 5.0 its node group, and the render domain
    when the scene starts compositing with it; in 4.5 the render domain."""
    if GROUPS:
        assert delta["datablocks"]["node_groups"]["added" if added else "changed"] == ["Compositing"], delta
        assert delta["settings"] == (["render"] if added else []), delta
    else:
        assert delta["settings"] == ["render"] and "datablocks" not in delta, delta


def test_compositor_presets_insert_before_the_output(fresh, bridge):
    assert fresh.ok("compositor_graph_info") == {"tree": None, "nodes": [], "links": []}
    r = fresh.ok("compositor_graph_edit", op="preset", preset="bloom")
    assert_graph_changed(r["delta"], added=True)
    assert sorted(n.bl_idname for n in comp_tree().nodes) == sorted(["CompositorNodeRLayers", "CompositorNodeGlare", OUTPUT_TYPE])
    assert ("CompositorNodeRLayers", "CompositorNodeGlare", "Image") in comp_links()
    assert ("CompositorNodeGlare", OUTPUT_TYPE, "Image") in comp_links()
    assert glare_type(comp_tree().nodes[r["node"]]) == "Bloom"
    info = fresh.ok("compositor_graph_info")
    assert info["tree"] == comp_tree().name and {"from_node": "capstan_bloom", "from_socket": "Image", "to_node": OUTPUT_NAME, "to_socket": "Image"} in info["links"]
    r = fresh.ok("compositor_graph_edit", op="preset", preset="vignette")
    assert_graph_changed(r["delta"], added=False)
    assert ("CompositorNodeGlare", "ShaderNodeMix", "A") in comp_links() and ("ShaderNodeMix", OUTPUT_TYPE, "Image") in comp_links()
    # The compositor runs when rendering headless: the vignette darkens the corners.
    fresh.ok("set_render_settings", engine="cycles", resolution_x=48, resolution_y=48, samples=1)
    fresh.ok("set_world", color=[1, 1, 1], strength=1)
    fresh.ok("delete_object", name="Cube")
    w, h, px = png_pixels(fresh.ok("render_image", filename="vignette.png")["path"])
    corner, centre = px[0], px[4 * (w * (h // 2) + w // 2)]
    assert corner < centre * 0.8, (corner, centre)
    for preset in ("glare", "denoise", "color_balance"):
        fresh.ok("compositor_graph_edit", op="preset", preset=preset)
    assert glare_type(comp_tree().nodes["capstan_glare"]) == "Fog Glow"
    assert fresh.ok("render_config")["compositor_nodes"] >= 8


def test_compositor_edits_and_refusals(fresh):
    assert error_code(fresh, "compositor_graph_edit", op="connect", from_node="A", from_socket=0, to_node="B", to_socket=0) == "not_found"
    assert comp_tree() is None
    if GROUPS:
        # An allowlisted type 5.0 removed (4.5 LTS has it): refused naming the version, and
        # the graph it would have started is taken back.
        doc = fresh.call("compositor_graph_edit", op="add_node", node_type="CompositorNodeGamma")
        assert doc["error"]["code"] == "unsupported" and bpy.app.version_string in doc["error"]["message"], doc
        assert comp_tree() is None and "Compositing" not in bpy.data.node_groups
    else:
        fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeGamma", name="Gm")
        fresh.ok("compositor_graph_edit", op="remove_node", node="Gm")
    fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeRGB", name="Tint")
    fresh.ok("compositor_graph_edit", op="remove_node", node="Tint")
    r = fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeExposure", name="Exp")
    tree = comp_tree()
    assert r["node"] == "Exp" and "Render Layers" in tree.nodes
    fresh.ok("compositor_graph_edit", op="set_input", node="Exp", input="Exposure", value=1.5)
    assert tree.nodes["Exp"].inputs["Exposure"].default_value == 1.5
    fresh.ok("compositor_graph_edit", op="connect", from_node="Render Layers", from_socket="Image", to_node="Exp", to_socket="Image")
    fresh.ok("compositor_graph_edit", op="connect", from_node="Exp", from_socket="Image", to_node=OUTPUT_NAME, to_socket="Image")
    assert ("CompositorNodeExposure", OUTPUT_TYPE, "Image") in comp_links()
    fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeGlare", name="G")
    assert error_code(fresh, "compositor_graph_edit", op="set_input", node="G", input="Type", value="Laser") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="set_input", node="G", input="Type", value=3) == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="set_input", node="Exp", input="Exposure", value="x") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="add_node", node_type="CompositorNodeOutputFile") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="add_node", node_type="CompositorNodeImage") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="remove_node", node="Ghost") == "not_found"
    # A socket named in the other version's words ("Factor" from 5.0, "Fac" in 4.5).
    fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeHueSat", name="HS")
    for word in ("Factor", "Fac"):
        fresh.ok("compositor_graph_edit", op="set_input", node="HS", input=word, value=0.25 if word == "Fac" else 0.5)
    assert tree.nodes["HS"].inputs[4].default_value == 0.25
    fresh.ok("compositor_graph_edit", op="disconnect", to_node=OUTPUT_NAME, to_socket="Image")
    fresh.ok("compositor_graph_edit", op="remove_node", node="Exp")
    assert "Exp" not in tree.nodes and glare_type(tree.nodes["G"]) == "Streaks"
    fresh.ok("compositor_graph_edit", op="set_input", node="G", input="Type", value="Fog Glow")
    assert glare_type(tree.nodes["G"]) == "Fog Glow"
