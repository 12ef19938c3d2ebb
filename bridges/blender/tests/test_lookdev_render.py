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


def comp_links():
    tree = bpy.context.scene.compositing_node_group
    return {(l.from_node.bl_idname, l.to_node.bl_idname, l.to_socket.name) for l in tree.links}


def test_compositor_presets_insert_before_the_output(fresh, bridge):
    assert fresh.ok("compositor_graph_info") == {"tree": None, "nodes": [], "links": []}
    r = fresh.ok("compositor_graph_edit", op="preset", preset="bloom")
    assert r["delta"]["datablocks"]["node_groups"]["added"] == ["Compositing"]
    assert ("CompositorNodeRLayers", "CompositorNodeGlare", "Image") in comp_links()
    assert ("CompositorNodeGlare", "NodeGroupOutput", "Image") in comp_links()
    glare = bpy.context.scene.compositing_node_group.nodes[r["node"]]
    assert glare.inputs["Type"].default_value == "Bloom"
    r = fresh.ok("compositor_graph_edit", op="preset", preset="vignette")
    assert r["delta"]["datablocks"]["node_groups"]["changed"] == ["Compositing"]
    assert ("CompositorNodeGlare", "ShaderNodeMix", "A") in comp_links() and ("ShaderNodeMix", "NodeGroupOutput", "Image") in comp_links()
    # The compositor runs when rendering headless: the vignette darkens the corners.
    fresh.ok("set_render_settings", engine="cycles", resolution_x=48, resolution_y=48, samples=1)
    fresh.ok("set_world", color=[1, 1, 1], strength=1)
    fresh.ok("delete_object", name="Cube")
    w, h, px = png_pixels(fresh.ok("render_image", filename="vignette.png")["path"])
    corner, centre = px[0], px[4 * (w * (h // 2) + w // 2)]
    assert corner < centre * 0.8, (corner, centre)
    for preset in ("glare", "denoise", "color_balance"):
        fresh.ok("compositor_graph_edit", op="preset", preset=preset)
    assert fresh.ok("render_config")["compositor_nodes"] >= 8


def test_compositor_edits_and_refusals(fresh):
    assert error_code(fresh, "compositor_graph_edit", op="connect", from_node="A", from_socket=0, to_node="B", to_socket=0) == "invalid_params"
    assert bpy.context.scene.compositing_node_group is None
    r = fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeExposure", name="Exp")
    tree = bpy.context.scene.compositing_node_group
    assert r["node"] == "Exp" and "Render Layers" in tree.nodes
    fresh.ok("compositor_graph_edit", op="set_input", node="Exp", input="Exposure", value=1.5)
    assert tree.nodes["Exp"].inputs["Exposure"].default_value == 1.5
    fresh.ok("compositor_graph_edit", op="connect", from_node="Render Layers", from_socket="Image", to_node="Exp", to_socket="Image")
    fresh.ok("compositor_graph_edit", op="connect", from_node="Exp", from_socket="Image", to_node="Group Output", to_socket="Image")
    assert ("CompositorNodeExposure", "NodeGroupOutput", "Image") in comp_links()
    fresh.ok("compositor_graph_edit", op="add_node", node_type="CompositorNodeGlare", name="G")
    assert error_code(fresh, "compositor_graph_edit", op="set_input", node="G", input="Type", value="Laser") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="set_input", node="Exp", input="Exposure", value="x") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="add_node", node_type="CompositorNodeOutputFile") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="add_node", node_type="CompositorNodeImage") == "invalid_params"
    assert error_code(fresh, "compositor_graph_edit", op="remove_node", node="Ghost") == "not_found"
    fresh.ok("compositor_graph_edit", op="disconnect", to_node="Group Output", to_socket="Image")
    fresh.ok("compositor_graph_edit", op="remove_node", node="Exp")
    assert "Exp" not in tree.nodes and tree.nodes["G"].inputs["Type"].default_value == "Streaks"
