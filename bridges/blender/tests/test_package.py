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
