"""The runtime file: how the host finds this bridge.

Written atomically (temp file in the same folder, fsync, rename) with mode 0600 so a
reader never sees a half-written file and no other user can read the token. Removed
on clean exit. Its default path is `$CAPSTAN_HOME/run/blender/server.json`, with
CAPSTAN_HOME resolved exactly as the host does (default `~/.capstan`), so both sides
agree on the path without anyone writing it down.
"""

import json
import os
import tempfile

from .containment import attestation


def capstan_home():
    home = os.environ.get("CAPSTAN_HOME")
    if home:
        return os.path.abspath(home)
    return os.path.join(os.path.expanduser("~"), ".capstan")


def default_path():
    return os.path.join(capstan_home(), "run", "blender", "server.json")


def write(path, port, token, app_version):
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    doc = {
        "http": "http://127.0.0.1:%d" % port,
        "token": token,
        "pid": os.getpid(),
        "protocol": 1,
        "app_version": app_version,
        "exec_key": attestation.key(),  # execute_python's attestation key (containment/attestation.py)
    }
    fd, tmp = tempfile.mkstemp(prefix=".server-", suffix=".json", dir=folder)
    try:
        os.fchmod(fd, 0o600) if hasattr(os, "fchmod") else None
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def remove(path, token):
    """Remove the file if it is still ours (another bridge may have replaced it)."""
    try:
        with open(path, encoding="utf-8") as f:
            if json.load(f).get("token") != token:
                return
        os.unlink(path)
    except (OSError, ValueError):
        pass
