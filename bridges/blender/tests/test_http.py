"""The HTTP side: loopback, token, size cap, runtime file, structured errors."""

import json
import os
import socket
import stat
import threading

from capstan_bridge import protocol


def test_the_runtime_file_is_private_atomic_and_complete(bridge):
    path = bridge.runtime_path
    mode = stat.S_IMODE(os.stat(path).st_mode)
    assert mode == 0o600, oct(mode)
    doc = json.load(open(path))
    assert doc["http"] == "http://127.0.0.1:%d" % bridge.port
    assert doc["token"] == bridge.token and len(doc["token"]) >= 32
    assert doc["pid"] == os.getpid()
    assert doc["protocol"] == 1
    assert doc["app_version"] == bridge.app_version
    leftovers = [n for n in os.listdir(os.path.dirname(path)) if n.startswith(".server-")]
    assert leftovers == []


def test_it_listens_on_loopback_only(bridge):
    host, port = bridge.server.server_address[:2]
    assert host == "127.0.0.1"
    assert protocol.FIRST_PORT <= port <= protocol.LAST_PORT


def test_ping_identifies_the_bridge(client):
    status, doc = client.raw("GET", "/ping")
    assert status == 200
    assert doc["bridge"] == "capstan" and doc["protocol"] == 1 and doc["app"] == "blender"
    assert doc["pid"] == os.getpid()


def test_ping_answers_while_the_main_thread_is_busy(bridge):
    # Nobody drains the queue here: ping must not need the main thread.
    s = socket.create_connection(("127.0.0.1", bridge.port), timeout=5)
    s.sendall(("GET /ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n" % bridge.token).encode())
    data = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    assert data.startswith(b"HTTP/1.1 200")


def test_missing_or_wrong_tokens_get_401_and_nothing_runs(client, bridge):
    before = client.ok("get_scene_info")["counts"]
    body = json.dumps({"id": "x", "command": "create_object", "params": {"type": "cube", "name": "Unauthorized"}}).encode()
    for token in (False, "wrong-token-" + "x" * 30, bridge.token[:-1]):
        status, doc = client.raw("POST", "/bridge", body, token=token)
        assert status == 401 and doc["error"]["code"] == "unauthorized"
        status, _ = client.raw("GET", "/ping", token=token)
        assert status == 401
    assert client.ok("get_scene_info")["counts"] == before
    assert "Unauthorized" not in [o["name"] for o in client.ok("get_scene_info")["objects"]]


def test_oversized_bodies_get_413_unread(bridge):
    s = socket.create_connection(("127.0.0.1", bridge.port), timeout=5)
    head = "POST /bridge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n" % (bridge.token, protocol.MAX_BODY_BYTES + 1)
    s.sendall(head.encode())
    reply = s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413"), reply[:80]


def test_malformed_requests_are_structured_errors(client):
    status, doc = client.raw("POST", "/bridge", b"{not json")
    assert status == 400 and doc["error"]["code"] == "bad_request"
    status, doc = client.raw("POST", "/bridge", json.dumps({"command": "get_scene_info"}).encode())
    assert status == 400 and "id" in doc["error"]["message"]
    doc = client.call("exec_python", code="import os")
    assert doc["ok"] is False and doc["error"]["code"] == "unknown_command"
    doc = client.call("create_object", type="teapot")
    assert doc["error"]["code"] == "invalid_params"
    status, doc = client.raw("GET", "/admin")
    assert status == 404


def test_concurrent_requests_are_all_answered(client):
    results = []

    def one(i):
        results.append(client.bridge.ping()["pid"])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8


def _exchange(sock, bridge, queue_owner, path="/ping"):
    """One GET on an open socket, the main thread draining meanwhile."""
    sock.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n" % (path, bridge.token)).encode())
    data = b""
    while b"\r\n\r\n" not in data:
        queue_owner.queue.drain(wait=0.001)
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int([line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")][0])
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def test_connections_are_kept_alive_and_cut_when_the_bridge_stops(tmp_path):
    from capstan_bridge.bridge import Bridge

    own = Bridge(runtime_path=str(tmp_path / "server.json"), output_dir=str(tmp_path / "out"))
    os.makedirs(own.output_dir, exist_ok=True)
    own.start_server()
    try:
        s = socket.create_connection(("127.0.0.1", own.port), timeout=5)
        first = _exchange(s, own, own)
        second = _exchange(s, own, own)
        assert first.startswith(b"HTTP/1.1 200") and second.startswith(b"HTTP/1.1 200"), (first[:60], second[:60])
        assert b"Connection: close" not in first
    finally:
        own.stop()
    # The kept connection outlived nothing: it is closed, and nothing more runs on it.
    s.settimeout(5)
    try:
        s.sendall(("GET /ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n" % own.token).encode())
        assert s.recv(4096) == b""
    except (ConnectionResetError, BrokenPipeError):
        pass
    assert not os.path.exists(own.runtime_path)
