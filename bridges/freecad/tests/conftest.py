"""Fixtures for the FreeCAD bridge's tests: the real bridge, started under `freecadcmd`
on a free loopback port with a runtime file in a temporary CAPSTAN_HOME, driven over
HTTP with its token, exactly as the host drives it.

FreeCAD must be installed: with no `freecadcmd` on PATH (or CAPSTAN_FREECADCMD), the
tests FAIL, they never skip.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.dirname(HERE)
START_SECONDS = 60


def freecadcmd():
    found = os.environ.get("CAPSTAN_FREECADCMD") or shutil.which("freecadcmd")
    if not found:
        pytest.fail("freecadcmd is not installed (Debian: apt-get install freecad); the FreeCAD bridge tests need it")
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    def __init__(self, base, token):
        self.base = base
        self.token = token
        self.counter = 0

    def raw(self, method, path, body=None, token=None, headers=None):
        req = urllib.request.Request(self.base + path, data=body, method=method)
        if token is not False:
            req.add_header("Authorization", "Bearer %s" % (token or self.token))
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def call(self, command, **params):
        self.counter += 1
        body = json.dumps({"id": "t%d" % self.counter, "command": command, "params": params}).encode()
        status, doc = self.raw("POST", "/bridge", body)
        assert status == 200, doc
        assert doc["id"] == "t%d" % self.counter
        return doc

    def ok(self, command, **params):
        doc = self.call(command, **params)
        assert doc["ok"], doc
        return doc["result"]

    def error(self, command, **params):
        doc = self.call(command, **params)
        assert not doc["ok"], doc
        return doc["error"]


@pytest.fixture(scope="session")
def bridge(tmp_path_factory):
    """(Client, info): info has the runtime file, its record, the read root, the output folder."""
    home = tmp_path_factory.mktemp("capstan-home")
    os.chmod(home, 0o700)
    roots = tmp_path_factory.mktemp("read-root")
    out = home / "out"
    runtime = home / "run" / "freecad" / "server.json"
    port = free_port()
    env = dict(os.environ, CAPSTAN_HOME=str(home), CAPSTAN_READ_ROOTS=str(roots), CAPSTAN_BRIDGE_VERIFY_DELTA="1",
               CAPSTAN_BRIDGE_DEBUG="1", HOME=str(home))
    log = open(home / "bridge.log", "wb")
    proc = subprocess.Popen([freecadcmd(), os.path.join(BRIDGE, "run_bridge.py"), "--", "--port", str(port),
                             "--runtime-file", str(runtime), "--output-dir", str(out)],
                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while not runtime.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the FreeCAD bridge did not start: %s" % (home / "bridge.log").read_text(errors="replace")[-4000:])
        time.sleep(0.05)
    record = json.loads(runtime.read_text())
    client = Client(record["http"], record["token"])
    yield client, {"runtime": runtime, "record": record, "root": roots, "out": out, "proc": proc, "port": port}
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture
def client(bridge):
    """A client on a fresh, empty document."""
    c = bridge[0]
    c.ok("reset_document")
    return c


