"""Fixtures for the add-on's tests. They run under a Python that can `import bpy`
(PyPI bpy, provisioned by scripts/test). bpy is only touched on the main thread: the
test's HTTP client runs in a helper thread while the main thread drains the queue,
exactly as the bridge's background loop does."""

import json
import os
import sys
import threading
import urllib.error
import urllib.request

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from capstan_bridge.bridge import Bridge  # noqa: E402


class Client:
    def __init__(self, bridge):
        self.bridge = bridge
        self.base = "http://127.0.0.1:%d" % bridge.port
        self.counter = 0

    def raw(self, method, path, body=None, token=None, headers=None):
        """(status, parsed JSON) — run off the main thread while the main thread drains."""
        result = {}

        def go():
            req = urllib.request.Request(self.base + path, data=body, method=method)
            if token is not False:
                req.add_header("Authorization", "Bearer %s" % (token or self.bridge.token))
            for k, v in (headers or {}).items():
                req.add_header(k, v)
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    result["status"], result["doc"] = r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                result["status"], result["doc"] = e.code, json.loads(e.read() or b"null")
            except Exception as e:  # surfaced below
                result["error"] = e

        t = threading.Thread(target=go)
        t.start()
        while t.is_alive():
            self.bridge.queue.drain(wait=0.01)
            t.join(0.001)
        if "error" in result:
            raise result["error"]
        return result["status"], result["doc"]

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


@pytest.fixture(scope="session")
def bridge(tmp_path_factory):
    home = tmp_path_factory.mktemp("capstan-home")
    os.environ["CAPSTAN_HOME"] = str(home)
    b = Bridge(runtime_path=str(home / "run" / "blender" / "server.json"), output_dir=str(home / "out"))
    # Every command's tracked delta is checked against a whole-scene snapshot, every
    # answer against its result schema, every error code against its declaration.
    b.verify = True
    os.makedirs(b.output_dir, exist_ok=True)
    b.start_server()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def client(bridge):
    return Client(bridge)
