import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import package  # noqa: E402


def test_both_packages_are_built(tmp_path):
    extension, legacy = package.build(str(tmp_path))
    with zipfile.ZipFile(extension) as z:
        names = set(z.namelist())
        assert "blender_manifest.toml" in names and "__init__.py" in names and "commands.json" in names
        assert "commands/objects.py" in names and "delta/tracker.py" in names
        assert not any("__pycache__" in n for n in names)
    with zipfile.ZipFile(legacy) as z:
        names = set(z.namelist())
        assert "capstan_bridge/__init__.py" in names and "capstan_bridge/commands.json" in names
        assert "capstan_bridge/blender_manifest.toml" not in names


def test_the_shared_core_is_packaged_as_plain_files(tmp_path):
    """`capstan_bridge/core` is a link to bridges/core/capstan_bridge_core in the source
    tree; the zips hold the core's files themselves, so an installed add-on needs
    nothing outside its folder."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = os.path.join(os.path.dirname(here), "core", "capstan_bridge_core")
    assert os.path.realpath(os.path.join(here, "capstan_bridge", "core")) == os.path.realpath(shared)
    core = sorted(n for n in os.listdir(shared) if n.endswith(".py"))
    extension, legacy = package.build(str(tmp_path))
    for path, prefix in ((extension, "core/"), (legacy, "capstan_bridge/core/")):
        with zipfile.ZipFile(path) as z:
            infos = {i.filename: i for i in z.infolist()}
        for name in core:
            info = infos[prefix + name]
            assert (info.external_attr >> 16) & 0o170000 != 0o120000, "%s is stored as a link" % info.filename
            assert info.file_size == os.path.getsize(os.path.join(shared, name))


def test_both_packages_declare_blender_4_5_lts_and_the_versions_tested():
    import tomllib

    import capstan_bridge

    assert capstan_bridge.bl_info["blender"] == (4, 5, 0)
    assert "tested on Blender 4.5 LTS and 5.2 LTS" in capstan_bridge.bl_info["description"]
    path = os.path.join(os.path.dirname(capstan_bridge.__file__), "blender_manifest.toml")
    with open(path, "rb") as f:
        text = f.read()
    assert tomllib.loads(text.decode())["blender_version_min"] == "4.5.0"
    assert b"tested on 4.5 LTS and 5.2 LTS" in text
