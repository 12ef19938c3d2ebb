"""The bridge under hostile load: a capped number of request threads, held only by
authorised requests in progress (the excess gets 503 `busy`, token-less requests get
401, and /ping keeps answering, all from the one front-door thread), and deadlines on
reading a request head and a whole request however slowly their bytes arrive."""

import json
import socket
import threading
import time

import pytest

from capstan_bridge.core import protocol


def _connect(bridge):
    return socket.create_connection(("127.0.0.1", bridge.port), timeout=5)


def _read_all(sock):
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
    return data


def _ping_request(token):
    return ("GET /ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n" % token).encode()


def _wait_for(predicate, seconds=5.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


@pytest.fixture
def small_cap(monkeypatch, bridge):
    # Every test connection of earlier tests is closed before this one starts.
    assert _wait_for(lambda: bridge.server.open_connections() == 0)
    monkeypatch.setattr(protocol, "MAX_CONNECTIONS", 4)
    return 4


def _hold_a_request_thread(bridge):
    """An authorised request whose body never completes: it holds one request thread
    until the socket closes (or REQUEST_READ_SECONDS pass)."""
    s = _connect(bridge)
    s.sendall(("POST /bridge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: 100\r\n\r\n{" % bridge.token).encode())
    return s


def _post(bridge, token, name):
    s = _connect(bridge)
    body = json.dumps({"id": name, "command": "create_object", "params": {"type": "cube", "name": name}})
    auth = "Authorization: Bearer %s\r\n" % token if token else ""
    s.sendall(("POST /bridge HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n%s" % (auth, len(body), body)).encode())
    return s


def test_requests_beyond_the_cap_get_503_token_less_ones_401_and_ping_still_answers(bridge, small_cap):
    threads_before = threading.active_count()
    held = [_hold_a_request_thread(bridge) for _ in range(small_cap)]
    assert _wait_for(lambda: bridge.server.open_connections() == small_cap)
    # Fifty connections without a token, each sending a command: 401, no thread each.
    flood = [_post(bridge, None, "Flood%d" % i) for i in range(50)]
    for s in flood:
        reply = _read_all(s)
        assert reply.startswith(b"HTTP/1.1 401"), reply[:80]
        assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "unauthorized"
        s.close()
    assert threading.active_count() <= threads_before + small_cap, "a thread per connection"
    # An authorised request past the cap: 503 busy.
    s = _post(bridge, bridge.token, "PastTheCap")
    reply = _read_all(s)
    assert reply.startswith(b"HTTP/1.1 503"), reply[:80]
    assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "busy"

    # /ping still answers (on the front door) while the cap is hit, and only with the token.
    s = _connect(bridge)
    s.sendall(_ping_request(bridge.token))
    reply = _read_all(s)
    assert reply.startswith(b"HTTP/1.1 200"), reply[:80]
    assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["bridge"] == "capstan"
    s = _connect(bridge)
    s.sendall(_ping_request("wrong-" + "x" * 40))
    assert _read_all(s).startswith(b"HTTP/1.1 401")

    for s in held:
        s.close()
    assert _wait_for(lambda: bridge.server.open_connections() == 0)


def test_nothing_sent_past_the_cap_or_without_the_token_runs(client, bridge, small_cap):
    before = [o["name"] for o in client.ok("get_scene_info")["objects"]]
    assert _wait_for(lambda: bridge.server.open_connections() == 0)
    held = [_hold_a_request_thread(bridge) for _ in range(small_cap)]
    assert _wait_for(lambda: bridge.server.open_connections() == small_cap)
    assert _read_all(_post(bridge, bridge.token, "PastTheCap")).startswith(b"HTTP/1.1 503")
    assert _read_all(_post(bridge, None, "NoToken")).startswith(b"HTTP/1.1 401")
    assert _read_all(_post(bridge, "wrong-" + "x" * 40, "WrongToken")).startswith(b"HTTP/1.1 401")
    for c in held:
        c.close()
    assert _wait_for(lambda: bridge.server.open_connections() == 0)
    after = [o["name"] for o in client.ok("get_scene_info")["objects"]]
    assert after == before


def test_a_request_trickled_byte_by_byte_is_cut_off_at_the_deadline(bridge, monkeypatch):
    monkeypatch.setattr(protocol, "FIRST_HEAD_SECONDS", 1.0)
    s = _connect(bridge)
    head = ("GET /ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nX-Padding: %s\r\n\r\n" % (bridge.token, "p" * 200)).encode()
    started = time.monotonic()
    closed_at = None
    # One byte every 50 ms: each read comes well within any per-read timeout, but
    # the whole head would take over 10 s.
    for byte in head:
        try:
            s.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            closed_at = time.monotonic()
            break
        time.sleep(0.05)
        if time.monotonic() - started > 4.0:
            break
    if closed_at is None:
        s.settimeout(3.0)
        try:
            data = s.recv(4096)
        except (ConnectionResetError, socket.timeout):
            data = b""
        closed_at = time.monotonic()
        assert data == b"", "the bridge answered a request that took longer than the deadline: %r" % data[:80]
    assert closed_at - started < 4.0, "the connection stayed open %.1f s" % (closed_at - started)


def test_a_body_that_never_completes_is_cut_off_and_nothing_runs(client, bridge, monkeypatch):
    monkeypatch.setattr(protocol, "REQUEST_READ_SECONDS", 1.0)
    before = client.ok("get_scene_info")["counts"]
    s = _connect(bridge)
    body = json.dumps({"id": "slow", "command": "create_object", "params": {"type": "cube", "name": "NeverComplete"}})
    s.sendall(("POST /bridge HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s" % (bridge.token, len(body) + 10, body)).encode())
    s.settimeout(5.0)
    started = time.monotonic()
    try:
        data = s.recv(4096)
    except ConnectionResetError:
        data = b""
    assert data == b"" and time.monotonic() - started < 4.0
    assert client.ok("get_scene_info")["counts"] == before
