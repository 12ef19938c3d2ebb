"""The FreeCAD bridge against real FreeCAD (freecadcmd), over HTTP with its token:
the protocol (runtime file, ping, 401, 413, unknown command), every command, and the
read-root policy shared with Blender's bridge."""

import json
import os
import stat
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from capstan_freecad import command  # noqa: E402
from capstan_freecad.core import protocol  # noqa: E402

CATALOG = os.path.join(os.path.dirname(HERE), "capstan_freecad", "commands.json")


def box(client, name="Box", **extra):
    return client.ok("create_primitive", kind="box", length=10, width=20, height=30, name=name, **extra)


# -- protocol ---------------------------------------------------------------------------

def test_the_runtime_file_is_private_and_names_freecad(bridge):
    _, info = bridge
    record = info["record"]
    assert record["http"] == "http://127.0.0.1:%d" % info["port"]
    assert record["protocol"] == 1 and record["app_version"] == "0.20.2"
    assert record["pid"] == info["proc"].pid
    assert stat.S_IMODE(os.stat(info["runtime"]).st_mode) == 0o600
    assert "exec_key" not in record


def test_ping_reports_the_commands_and_the_catalog(bridge):
    client, _ = bridge
    status, ping = client.raw("GET", "/ping")
    assert status == 200
    assert (ping["bridge"], ping["protocol"], ping["app"], ping["app_version"]) == ("capstan", 1, "freecad", "0.20.2")
    catalog = json.load(open(CATALOG))
    assert ping["commands"] == sorted(catalog["commands"])
    assert ping["catalog_sha256"] == command.catalog_sha256(command.discover())


def test_a_wrong_or_missing_token_is_401_and_runs_nothing(client):
    body = json.dumps({"id": "x", "command": "create_primitive", "params": {"kind": "sphere", "radius": 1}}).encode()
    assert client.raw("POST", "/bridge", body, token="wrong" * 8)[0] == 401
    assert client.raw("POST", "/bridge", body, token=False)[0] == 401
    assert client.raw("GET", "/ping", token="nope")[0] == 401
    assert client.ok("list_objects")["objects"] == []


def test_an_oversized_body_is_413(bridge):
    import socket

    client, info = bridge
    head = "POST /bridge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n" % (
        client.token, protocol.MAX_BODY_BYTES + 1)
    with socket.create_connection(("127.0.0.1", info["port"]), timeout=10) as s:
        s.sendall(head.encode())
        answer = s.recv(4096).decode("latin-1")
    assert answer.startswith("HTTP/1.1 413"), answer


def test_an_unknown_command_and_bad_params_are_refused(client):
    assert client.error("no_such_command")["code"] == "unknown_command"
    assert client.error("create_primitive", kind="box", length=10)["code"] == "invalid_params"
    assert client.error("create_primitive", kind="pyramid", radius=1)["code"] == "invalid_params"


# -- primitives, measure, objects ---------------------------------------------------------

def test_primitives_have_their_volumes(client):
    import math

    made = box(client)
    assert made["name"] == "Box" and made["delta"]["added"] == ["Box"]
    assert made["volume"] == pytest.approx(6000.0)
    cases = [
        (dict(kind="cylinder", radius=5, height=10), math.pi * 25 * 10),
        (dict(kind="sphere", radius=3), 4 / 3 * math.pi * 27),
        (dict(kind="cone", radius=4, height=9), math.pi * 16 * 9 / 3),
        (dict(kind="cone", radius=4, top_radius=2, height=9), math.pi * 9 * (16 + 8 + 4) / 3),
        (dict(kind="torus", radius=10, tube_radius=2), 2 * math.pi ** 2 * 10 * 4),
    ]
    for params, volume in cases:
        assert client.ok("create_primitive", **params)["volume"] == pytest.approx(volume, rel=1e-6), params
    measured = client.ok("measure", objects=["Box"])["objects"][0]
    assert measured["volume_mm3"] == pytest.approx(6000.0)
    assert measured["bounds_mm"]["size"] == pytest.approx([10, 20, 30])
    assert measured["center_of_mass"] == pytest.approx([5, 10, 15])
    assert measured["valid"] and measured["solids"] == 1


def test_placement_moves_and_rotates(client):
    box(client, position=[100, 0, 0], rotation=[0, 0, 90])
    info = client.ok("object_info", name="Box")
    assert info["position"] == pytest.approx([100, 0, 0])
    assert info["rotation"] == pytest.approx([0, 0, 90])
    size = info["measure"]["bounds_mm"]["size"]
    assert size == pytest.approx([20, 10, 30])


def test_list_objects_and_object_info(client):
    box(client)
    listed = client.ok("list_objects")["objects"]
    assert [(o["name"], o["type"], o["visible"]) for o in listed] == [("Box", "Part::Box", True)]
    assert client.error("object_info", name="Nope")["code"] == "not_found"


# -- boolean, fillet, chamfer ------------------------------------------------------------

def test_boolean_cut_removes_the_tools_volume(client):
    import math

    box(client)
    client.ok("create_primitive", kind="cylinder", name="Hole", radius=3, height=30, position=[5, 10, 0])
    cut = client.ok("boolean", operation="cut", base="Box", tool="Hole", name="Drilled")
    assert cut["volume"] == pytest.approx(6000 - math.pi * 9 * 30, rel=1e-6)
    assert cut["delta"]["added"] == ["Drilled"]
    assert sorted(cut["delta"]["changed"]) == ["Box", "Hole"]
    visible = {o["name"]: o["visible"] for o in client.ok("list_objects")["objects"]}
    assert visible == {"Box": False, "Hole": False, "Drilled": True}
    assert client.ok("measure")["total_volume_mm3"] == pytest.approx(cut["volume"])
    assert client.error("boolean", operation="fuse", base="Box", tool="Missing")["code"] == "not_found"


def test_boolean_keeps_inputs_visible_when_asked(client):
    box(client)
    client.ok("create_primitive", kind="sphere", name="Ball", radius=8)
    fused = client.ok("boolean", operation="fuse", base="Box", tool="Ball", keep_inputs_visible=True)
    assert fused["delta"]["changed"] == [] and fused["solids"] == 1


def test_fillet_and_chamfer_change_the_volume_and_stay_valid(client):
    box(client)
    rounded = client.ok("fillet", object="Box", radius=2)
    assert rounded["edges"] == 12 and rounded["valid"]
    assert 5700 < rounded["volume"] < 6000
    box(client, name="Other")
    bevelled = client.ok("chamfer", object="Other", size=1, edges=[1, 2])
    assert bevelled["edges"] == 2 and bevelled["valid"] and bevelled["volume"] < 6000
    measured = client.ok("measure", objects=[rounded["name"]])["objects"][0]
    assert measured["valid"] and measured["solids"] == 1


def test_a_fillet_too_large_fails_and_leaves_the_document_as_it_was(client):
    box(client)
    before = client.ok("list_objects")["objects"]
    error = client.error("fillet", object="Box", radius=50)
    assert error["code"] == "operation_failed"
    assert "delta" not in error
    assert client.ok("list_objects")["objects"] == before
    assert client.error("fillet", object="Box", radius=1, edges=[99])["code"] == "invalid_params"


# -- export and import --------------------------------------------------------------------

def test_step_round_trip_preserves_the_volume(client, bridge):
    box(client)
    client.ok("fillet", object="Box", radius=3)
    volume = client.ok("measure")["total_volume_mm3"]
    exported = client.ok("export_cad", file_name="part.step", format="step")
    assert exported["bytes"] > 1000 and os.path.dirname(exported["path"]) == str(bridge[1]["out"])
    client.ok("reset_document")
    imported = client.ok("import_cad", path=exported["path"], name="Part")
    assert imported["delta"]["added"] == ["Part"] and imported["format"] == "step"
    assert imported["volume_mm3"] == pytest.approx(volume, rel=1e-3)
    assert imported["solids"] == 1


def test_stl_triangle_count_follows_the_quality(client):
    client.ok("create_primitive", kind="sphere", radius=10)
    coarse = client.ok("export_cad", file_name="coarse.stl", format="stl", quality="coarse")
    fine = client.ok("export_cad", file_name="fine.stl", format="stl", quality="fine")
    custom = client.ok("export_cad", file_name="custom.obj", format="obj",
                       quality={"linear_deflection_mm": 0.5, "angular_deflection_deg": 20})
    assert 0 < coarse["triangles"] < custom["triangles"] < fine["triangles"]
    assert coarse["bytes"] < fine["bytes"]
    assert custom["linear_deflection_mm"] == 0.5


def test_the_finest_tessellation_is_bounded_by_the_parts_size(client):
    # 0.001 mm on a 200 mm sphere is inside the schema's bounds and would mesh for
    # minutes into gigabytes; the deflection used is 2e-5 of the bounding-box diagonal.
    client.ok("create_primitive", kind="sphere", radius=100)
    out = client.ok("export_cad", file_name="big.stl", format="stl",
                    quality={"linear_deflection_mm": 0.001, "angular_deflection_deg": 30})
    assert out["linear_deflection_mm"] >= 346.4 * 2e-5 * 0.999, out
    assert 0 < out["triangles"] < 2_000_000, out


def test_non_finite_numbers_are_not_json_and_nothing_runs(client):
    before = client.ok("list_objects")
    for literal in ("NaN", "Infinity", "-Infinity"):
        body = ('{"id": "n1", "command": "create_primitive", "params": {"kind": "box", "length": %s, "width": 1, "height": 1}}' % literal).encode()
        status, doc = client.raw("POST", "/bridge", body)
        assert status == 400 and doc["error"]["code"] == "bad_request", (literal, doc)
    status, doc = client.raw("POST", "/bridge", b"[" * 100_000 + b"]" * 100_000)
    assert status == 400 and doc["error"]["code"] == "bad_request", doc
    assert client.ok("list_objects") == before


def test_export_refuses_paths_outside_the_output_folder(client):
    box(client)
    for name in ("../escape.step", "/tmp/escape.step", "sub/x.step"):
        assert client.error("export_cad", file_name=name, format="step")["code"] == "path_refused", name
    assert client.error("export_cad", file_name="x.stl", format="step")["code"] == "invalid_params"


def test_iges_from_a_read_root_imports_as_a_solid(client, bridge):
    import subprocess

    from conftest import freecadcmd

    path = bridge[1]["root"] / "part.igs"
    script = bridge[1]["root"].parent / "make_iges.py"
    script.write_text("import Part\nPart.makeBox(10, 20, 30).exportIges(%r)\n" % str(path))
    subprocess.run([freecadcmd(), str(script)], check=True, capture_output=True, timeout=60)
    imported = client.ok("import_cad", path=str(path))
    assert imported["format"] == "iges" and imported["new_objects"] == ["part"]
    assert imported["volume_mm3"] == pytest.approx(6000.0, rel=1e-3)


def test_imports_outside_the_read_roots_are_refused_as_blender_refuses_them(client, tmp_path):
    outside = tmp_path / "outside.step"
    outside.write_text("ISO-10303-21;\n")
    assert client.error("import_cad", path=str(outside))["code"] == "path_refused"
    assert client.error("import_cad", path="../x.step")["code"] == "path_refused"
    assert client.error("import_cad", path="missing.step")["code"] == "not_found"
    assert client.error("import_cad", path=str(outside.with_suffix(".txt")))["code"] == "path_refused"


# -- session -----------------------------------------------------------------------------

def test_reset_gives_an_empty_document(client):
    box(client)
    reset = client.ok("reset_document")
    assert reset["objects"] == [] and reset["delta"]["removed"] == ["Box"]
    assert client.ok("list_objects")["objects"] == []


def test_undo_last_takes_back_one_command(client):
    box(client)
    client.ok("fillet", object="Box", radius=1)
    undone = client.ok("undo_last")
    assert undone["undone"] == "fillet" and undone["delta"]["removed"] == ["Fillet"]
    assert [o["name"] for o in client.ok("list_objects")["objects"]] == ["Box"]


# -- one declaration, one core -------------------------------------------------------------

def test_the_generated_catalog_and_client_are_current():
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    done = subprocess.run([sys.executable, os.path.join(root, "scripts", "bridgegen.py"), "--app", "freecad", "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    commands = command.discover()
    assert command.catalog_text(commands) == open(CATALOG).read()


def test_the_core_is_the_shared_one_not_a_copy():
    package = os.path.join(os.path.dirname(HERE), "capstan_freecad")
    shared = os.path.join(os.path.dirname(os.path.dirname(HERE)), "core", "capstan_bridge_core")
    assert os.path.realpath(os.path.join(package, "core")) == os.path.realpath(shared)
