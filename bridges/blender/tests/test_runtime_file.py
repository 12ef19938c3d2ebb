"""The runtime file's location is checked before the bridge publishes there: a
CAPSTAN_HOME, a folder on the way (`run/`), the runtime file's folder or an existing
runtime file owned by another user or writable
by others is refused with the path and the reason; what the bridge creates is
owner-only. (Giving files to another user needs root, as in CI.)"""

import json
import os
import stat

import pytest

from capstan_bridge.core import runtime_file

needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
OTHER_UID = 4242


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    monkeypatch.setenv("CAPSTAN_HOME", str(h))
    return h


def _path(home):
    return str(home / "run" / "blender" / "server.json")


def _mode(p):
    return stat.S_IMODE(os.stat(p).st_mode)


def test_a_fresh_home_is_created_owner_only_and_the_file_is_private(home):
    path = _path(home)
    runtime_file.write(path, 9876, "t" * 40, "5.0.1")
    for folder in (home, home / "run", home / "run" / "blender"):
        assert _mode(folder) == 0o700, (folder, oct(_mode(folder)))
    assert _mode(path) == 0o600
    assert json.load(open(path))["token"] == "t" * 40
    runtime_file.remove(path, "t" * 40)
    assert not os.path.exists(path)


@pytest.mark.parametrize("which", ["home", "run", "folder"])
def test_a_location_writable_by_others_is_refused(home, which):
    path = _path(home)
    runtime_file.write(path, 9876, "t" * 40, "5.0.1")
    target = {"home": home, "run": home / "run", "folder": home / "run" / "blender"}[which]
    for mode in (0o777, 0o1777, 0o770):
        os.chmod(target, mode)
        with pytest.raises(runtime_file.UntrustedLocation) as refused:
            runtime_file.write(path, 9877, "u" * 40, "5.0.1")
        assert "writable by other users" in str(refused.value) and str(target) in str(refused.value)
    os.chmod(target, 0o700)
    assert json.load(open(path))["http"].endswith(":9876"), "the refused write changed nothing"


def test_the_ancestors_of_capstan_home_are_not_checked(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    monkeypatch.setenv("CAPSTAN_HOME", str(shared / "home"))
    path = str(shared / "home" / "run" / "blender" / "server.json")
    runtime_file.write(path, 9876, "t" * 40, "5.0.1")
    assert os.path.exists(path)


@needs_root
@pytest.mark.parametrize("which", ["home", "run", "folder", "file"])
def test_a_location_owned_by_another_user_is_refused(home, which):
    path = _path(home)
    runtime_file.write(path, 9876, "t" * 40, "5.0.1")
    target = {"home": home, "run": home / "run", "folder": home / "run" / "blender", "file": path}[which]
    os.chown(target, OTHER_UID, OTHER_UID)
    with pytest.raises(runtime_file.UntrustedLocation) as refused:
        runtime_file.write(path, 9877, "u" * 40, "5.0.1")
    assert "owned by uid %d" % OTHER_UID in str(refused.value) and str(target) in str(refused.value)


def test_a_symlinked_runtime_file_or_folder_is_refused(home, tmp_path):
    path = _path(home)
    runtime_file.write(path, 9876, "t" * 40, "5.0.1")
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    os.unlink(path)
    os.symlink(elsewhere, path)
    with pytest.raises(runtime_file.UntrustedLocation):
        runtime_file.write(path, 9877, "u" * 40, "5.0.1")
    assert elsewhere.read_text() == "{}"
    os.unlink(path)
    # The run folder itself replaced by a link to another folder: not followed.
    other = tmp_path / "other-run"
    other.mkdir(mode=0o700)
    os.rmdir(home / "run" / "blender")
    os.symlink(other, home / "run" / "blender")
    with pytest.raises(OSError):
        runtime_file.write(path, 9877, "u" * 40, "5.0.1")
    assert os.listdir(other) == []
