"""File references a .blend brings (issue 26, finding 3), in real Blender: a file in a read
root whose Import Text node reads a secret outside the roots into geometry, whose
compositor File Output node writes outside the output folder and whose image lives
outside the roots. Opening it is refused and leaves the session as it was; opening it
with its references detached, then rendering, shows the secret nowhere and writes
nothing outside the output folder. Appends, imports and renders are checked the same
way, and `list_file_references` reads the same list back."""

import json
import os
import shutil
import uuid

import bpy
import pytest

from capstan_bridge import file_refs_check
from lookdev_support import error_code, fresh, read_root, write_image  # noqa: F401


@pytest.fixture(autouse=True)
def factory_scene_after(client):
    """Leave no reference to this module's temporary folders to the tests that follow."""
    yield
    client.ok("reset_scene")


def tree_files(folder):
    """Every file and folder under `folder` (relative paths), to see what appeared."""
    out = set()
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            out.add(os.path.relpath(os.path.join(base, name), folder))
    return out


def text_instances(name="Cube"):
    """How many instances the object's evaluated geometry holds: String to Curves makes
    one per character of the text the Import Text node read."""
    obj = bpy.data.objects[name]
    dg = bpy.context.evaluated_depsgraph_get()
    return sum(1 for i in dg.object_instances if i.is_instance and i.parent is not None and i.parent.original == obj)


def add_file_output(sc, folder):
    """A compositor File Output node writing the render into `folder` (5.x: the scene's
    compositing node group; 4.5: the scene's own node tree)."""
    if hasattr(sc, "compositing_node_group"):
        tree = bpy.data.node_groups.new("Leak Compositor", "CompositorNodeTree")
        sc.compositing_node_group = tree
        layers = tree.nodes.new("CompositorNodeRLayers")
        node = tree.nodes.new("CompositorNodeOutputFile")
        node.directory = folder + "/"
        node.file_name = "leak"
        node.file_output_items.new("RGBA", "Image")
        tree.links.new(layers.outputs["Image"], node.inputs["Image"])
    else:
        sc.use_nodes = True
        tree = sc.node_tree
        layers = next(n for n in tree.nodes if n.bl_idname == "CompositorNodeRLayers")
        node = tree.nodes.new("CompositorNodeOutputFile")
        node.base_path = folder + "/"
        tree.links.new(layers.outputs["Image"], node.inputs[0])
    node.name = "Leak Output"
    return node


def add_text_import(obj, secret_path, computed=False):
    """A Geometry Nodes modifier on `obj`: Import Text (path `secret_path`, or a path a
    String node computes) into String to Curves, so the text becomes geometry."""
    tree = bpy.data.node_groups.new("Leak", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    out = tree.nodes.new("NodeGroupOutput")
    imp = tree.nodes.new("GeometryNodeImportText")
    imp.name = "Import Secret"
    if computed:
        text = tree.nodes.new("FunctionNodeInputString")
        text.string = secret_path
        tree.links.new(text.outputs[0], imp.inputs["Path"])
    else:
        imp.inputs["Path"].default_value = secret_path
    curves = tree.nodes.new("GeometryNodeStringToCurves")
    tree.links.new(imp.outputs[0], curves.inputs["String"])
    tree.links.new(curves.outputs[0], out.inputs[0])
    mod = obj.modifiers.new("Leak", "NODES")
    mod.node_group = tree
    return imp


@pytest.fixture
def leaky(fresh, read_root, tmp_path):
    """leak.blend in the read root, its outside files, and a control that shows the
    file does read the secret and write outside when nothing stops it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = "CAPSTAN-SECRET-%s" % uuid.uuid4().hex[:12].upper()
    (outside / "secret.txt").write_text(secret)
    image_path = write_image(outside / "secret.png")
    fo_dir = str(outside / "fo_out")

    sc = bpy.context.scene
    add_text_import(bpy.data.objects["Cube"], str(outside / "secret.txt"))
    add_file_output(sc, fo_dir)
    image = bpy.data.images.load(image_path, check_existing=False)
    image.name = "Secret Image"
    image.use_fake_user = True
    # Control: unchecked, the file reads the secret into geometry and writes outside.
    assert text_instances() == len(secret)
    r = sc.render
    r.engine, r.resolution_x, r.resolution_y = "CYCLES", 16, 16
    sc.cycles.samples, sc.cycles.device = 1, "CPU"
    bpy.ops.render.render(write_still=False)
    assert os.listdir(fo_dir), "the control render wrote no File Output file"
    shutil.rmtree(fo_dir)
    blend = str(read_root / "leak.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend, copy=True)
    fresh.ok("reset_scene")
    return {"blend": blend, "secret": secret, "secret_path": str(outside / "secret.txt"), "image_path": image_path,
            "fo_dir": fo_dir, "tmp": str(tmp_path)}


def answers_of(client):
    """Record every answer the client gets from now on (to look for the secret in)."""
    seen = []
    original = client.call

    def call(command, **params):
        doc = original(command, **params)
        seen.append(json.dumps(doc))
        return doc

    client.call = call
    return seen


def names_each_reference(message, leaky):
    real = os.path.realpath
    assert "Import Secret" in message and real(leaky["secret_path"]) in message  # the import node and what it reads
    assert "Leak Output" in message and real(leaky["fo_dir"]) in message          # the File Output node and where it writes
    assert "Secret Image" in message and real(leaky["image_path"]) in message     # the image and its file


def test_open_refuses_the_file_names_each_reference_and_keeps_the_session(leaky, fresh):
    seen = answers_of(fresh)
    try:
        fresh.ok("create_object", type="cone", name="Keeper")
        before = tree_files(leaky["tmp"])
        doc = fresh.call("open_blend", path=leaky["blend"])
        assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references", doc
        names_each_reference(doc["error"]["message"], leaky)
        assert "detach_outside_references" in doc["error"]["message"]
        # Nothing of the file was loaded: the session keeps its own scene.
        assert "Keeper" in bpy.data.objects and "Leak" not in bpy.data.node_groups
        assert "Secret Image" not in bpy.data.images
        assert fresh.ok("list_file_references", refused_only=True)["total"] == 0
        assert text_instances() == 0
        rendered = fresh.ok("render_preview", width=16, height=16, samples=1)
        assert rendered["bytes"] > 0
        assert tree_files(leaky["tmp"]) == before and not os.path.exists(leaky["fo_dir"])
        assert not any(leaky["secret"] in answer for answer in seen)
    finally:
        del fresh.call


def test_detached_open_renders_without_the_secret_and_writes_only_to_the_output_folder(leaky, fresh, bridge):
    seen = answers_of(fresh)
    try:
        before = tree_files(leaky["tmp"])
        out_before = tree_files(bridge.output_dir)
        opened = fresh.ok("open_blend", path=leaky["blend"], detach_outside_references=True)
        kinds = {d["kind"] for d in opened["detached"]}
        assert {"geometry_import", "file_output", "image"} <= kinds, opened["detached"]
        imp = next(d for d in opened["detached"] if d["kind"] == "geometry_import")
        assert imp["node"] == "Import Secret" and imp["problem"] == "outside_read_roots" and imp["action"] == "cleared"
        fo = next(d for d in opened["detached"] if d["kind"] == "file_output")
        assert fo["node"] == "Leak Output" and fo["problem"] == "outside_output_folder" and fo["action"] == "removed_node"
        img = next(d for d in opened["detached"] if d["kind"] == "image")
        assert img["datablock"] == "Secret Image" and img["absolute"] == os.path.realpath(leaky["image_path"])
        # The import node stays, reading nothing; the File Output node is gone; the image has no file.
        assert bpy.data.node_groups["Leak"].nodes["Import Secret"].inputs["Path"].default_value == ""
        assert bpy.data.images["Secret Image"].filepath == ""
        assert text_instances() == 0
        listed = fresh.ok("list_file_references")
        assert listed["refused"] == 0
        assert not any(r["path"] in (leaky["secret_path"], leaky["image_path"]) for r in listed["references"])

        fresh.ok("set_render_settings", engine="cycles", resolution_x=32, resolution_y=32, samples=1)
        still = fresh.ok("render_image", filename="detached.png")
        assert os.path.dirname(still["path"]) == os.path.realpath(bridge.output_dir) and still["bytes"] > 0
        frames = fresh.ok("render_frames", frame_start=1, frame_end=1, pattern="detached_####")
        assert frames["files"] == ["detached_0001.png"]
        assert tree_files(leaky["tmp"]) == before and not os.path.exists(leaky["fo_dir"])
        assert tree_files(bridge.output_dir) - out_before == {"detached.png", "detached_0001.png"}
        assert not any(leaky["secret"] in answer for answer in seen)
    finally:
        del fresh.call


def test_a_render_is_refused_while_the_scene_reads_or_writes_outside(leaky, fresh, bridge):
    """A file opened earlier and changed since: the check before a render sees it."""
    fresh.ok("set_render_settings", engine="cycles", resolution_x=16, resolution_y=16, samples=1)
    node = add_text_import(bpy.data.objects["Cube"], leaky["secret_path"])
    before = tree_files(bridge.output_dir)
    doc = fresh.call("render_image", filename="refused.png")
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    assert "Import Secret" in doc["error"]["message"] and leaky["secret_path"] in doc["error"]["message"]
    assert error_code(fresh, "render_preview", width=16, height=16) == "outside_file_references"
    assert error_code(fresh, "export_file", filename="refused.glb", format="glb") == "outside_file_references"
    assert tree_files(bridge.output_dir) == before

    node.inputs["Path"].default_value = ""
    fo = add_file_output(bpy.context.scene, leaky["fo_dir"])
    doc = fresh.call("render_image", filename="refused.png")
    assert doc["ok"] is False and "Leak Output" in doc["error"]["message"] and leaky["fo_dir"] in doc["error"]["message"]
    # Read the name now: detaching removes the node, and a Python reference to a removed
    # node reads freed memory.
    fo_name = fo.name
    out = fresh.ok("detach_file_references")
    assert [d["node"] for d in out["detached"] if d["kind"] == "file_output"] == [fo_name] and out["remaining"] == []
    assert fresh.ok("render_image", filename="allowed.png")["bytes"] > 0
    assert not os.path.exists(leaky["fo_dir"])


def test_an_import_path_the_tree_computes_is_refused_even_inside_the_roots(fresh, read_root):
    inside = read_root / "inside.txt"
    inside.write_text("harmless")
    add_text_import(bpy.data.objects["Cube"], str(inside), computed=True)
    blend = str(read_root / "computed.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend, copy=True)
    fresh.ok("reset_scene")
    doc = fresh.call("open_blend", path=blend)
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    assert "Import Secret" in doc["error"]["message"] and "computes" in doc["error"]["message"]
    opened = fresh.ok("open_blend", path=blend, detach_outside_references=True)
    computed = [d for d in opened["detached"] if d["kind"] == "geometry_import"]
    assert computed and computed[0]["computed"] is True and computed[0]["action"] == "removed_node"
    assert "Import Secret" not in bpy.data.node_groups["Leak"].nodes


def test_the_load_guard_catches_what_the_prescan_missed(leaky, fresh, monkeypatch):
    """The scan of the opened Main (load_post, before Blender evaluates it) stands alone:
    with the scan of the temporary Main switched off, the open is still refused and the
    session is left empty, not holding the file."""
    monkeypatch.setattr(file_refs_check, "prescan", lambda *a, **k: [])
    doc = fresh.call("open_blend", path=leaky["blend"])
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    names_each_reference(doc["error"]["message"], leaky)
    assert "empty scene" in doc["error"]["message"]
    assert len(bpy.data.objects) == 0 and "Leak" not in bpy.data.node_groups and "Secret Image" not in bpy.data.images
    assert not os.path.exists(leaky["fo_dir"])


def test_append_is_refused_before_anything_arrives_or_appends_detached(leaky, fresh):
    before = sorted(o.name for o in bpy.data.objects)
    doc = fresh.call("append_from_blend", path=leaky["blend"], datablock_type="Object", names=["Cube"])
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    assert "Import Secret" in doc["error"]["message"] and leaky["secret_path"] in doc["error"]["message"]
    assert sorted(o.name for o in bpy.data.objects) == before and "Leak" not in bpy.data.node_groups
    out = fresh.ok("append_from_blend", path=leaky["blend"], datablock_type="Object", names=["Cube"],
                   detach_outside_references=True)
    assert out["datablocks"] == ["Cube.001"]
    assert [d["node"] for d in out["detached"]] == ["Import Secret"]
    assert text_instances("Cube.001") == 0
    assert fresh.ok("list_file_references", refused_only=True)["total"] == 0


def test_append_backstop_removes_what_it_brought(leaky, fresh, monkeypatch):
    monkeypatch.setattr(file_refs_check, "prescan", lambda *a, **k: [])
    groups = set(bpy.data.node_groups.keys())
    objects = set(bpy.data.objects.keys())
    doc = fresh.call("append_from_blend", path=leaky["blend"], datablock_type="Object", names=["Cube"])
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    assert "removed again" in doc["error"]["message"]
    assert set(bpy.data.node_groups.keys()) == groups and set(bpy.data.objects.keys()) == objects


def test_an_import_whose_material_points_outside_is_refused_and_removed(fresh, read_root, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    texture = write_image(outside / "outside_diffuse.png")
    (read_root / "tex.mtl").write_text("newmtl Painted\nKd 1 1 1\nmap_Kd %s\n" % texture)
    (read_root / "tex.obj").write_text("mtllib tex.mtl\no Tile\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\n"
                                       "usemtl Painted\nf 1/1 2/2 3/3\n")
    objects, images = set(bpy.data.objects.keys()), set(bpy.data.images.keys())
    doc = fresh.call("import_file", path=str(read_root / "tex.obj"))
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references", doc
    assert texture in doc["error"]["message"]
    assert set(bpy.data.objects.keys()) == objects and set(bpy.data.images.keys()) == images
    out = fresh.ok("import_file", path=str(read_root / "tex.obj"), detach_outside_references=True)
    assert out["new_objects"] == ["Tile"]
    assert [(d["kind"], d["absolute"]) for d in out["detached"]] == [("image", os.path.realpath(texture))]


def test_list_file_references_resolves_paths_and_says_what_is_refused(fresh, read_root, tmp_path, bridge):
    inside = write_image(read_root / "wood.png")
    outside = write_image(tmp_path / "not_a_root.png")
    fresh.ok("load_image", path=inside)
    stray = bpy.data.images.load(outside, check_existing=False)
    stray.name = "Stray"
    listed = fresh.ok("list_file_references", kind="image")
    by_name = {r["datablock"]: r for r in listed["references"]}
    assert by_name["wood.png"]["problem"] is None and by_name["wood.png"]["absolute"] == os.path.realpath(inside)
    assert by_name["Stray"]["problem"] == "outside_read_roots" and by_name["Stray"]["direction"] == "input"
    assert listed["refused"] == 1 and os.path.realpath(listed["output_folder"]) == os.path.realpath(bridge.output_dir)
    renders = fresh.ok("list_file_references", kind="render_output")["references"]
    assert renders and renders[0]["direction"] == "output" and renders[0]["problem"] is None  # capstan never writes there
    out = fresh.ok("detach_file_references")
    assert [d["datablock"] for d in out["detached"] if d["kind"] == "image"] == ["Stray"]
    assert bpy.context.scene.render.filepath == os.path.realpath(bridge.output_dir) + os.sep
    assert fresh.ok("list_file_references", refused_only=True)["total"] == 0


def test_a_library_outside_the_roots_is_refused_and_detached_with_what_it_links(fresh, read_root, tmp_path):
    outside = tmp_path / "libs"
    outside.mkdir()
    lib_path = str(outside / "shared.blend")
    material = bpy.data.materials.new("Shared Paint")
    bpy.data.libraries.write(lib_path, {material})
    bpy.data.materials.remove(material)
    with bpy.data.libraries.load(lib_path, link=True) as (_src, dst):
        dst.materials = ["Shared Paint"]
    bpy.data.objects["Cube"].data.materials[0] = dst.materials[0]
    blend = str(read_root / "links.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend, copy=True)
    fresh.ok("reset_scene")
    doc = fresh.call("open_blend", path=blend)
    assert doc["ok"] is False and doc["error"]["code"] == "outside_file_references"
    assert "library" in doc["error"]["message"] and os.path.realpath(lib_path) in doc["error"]["message"]
    assert len(bpy.data.libraries) == 0
    opened = fresh.ok("open_blend", path=blend, detach_outside_references=True)
    assert [(d["kind"], d["action"]) for d in opened["detached"] if d["kind"] == "library"] == [("library", "removed_library")]
    assert len(bpy.data.libraries) == 0 and "Shared Paint" not in bpy.data.materials
