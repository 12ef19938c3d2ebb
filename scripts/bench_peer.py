#!/usr/bin/env python3
"""Side by side: capstan's `execute_capability scene.info` against blender-mcp 1.6.0's
`get_scene_info`, each MCP server over stdio against its own loopback stub answering
the same recorded factory scene, alternated call by call in one run (issue 30).

    python3 scripts/bench_peer.py [--capstan target/release/capstan] [--calls 500] [--no-status] [--pure] [--floor]

- capstan: `capstan serve` (guided surface) with CAPSTAN_HOME a fresh private folder
  whose runtime file names a stub of capstan's bridge protocol (HTTP/1.1, kept
  connection, bearer token). The stub answers `/ping` and `get_scene_info` with the
  bytes a real headless Blender 5.2.4 answered (host/tests/data/blender_factory_scene.json).
- blender-mcp 1.6.0 (with mcp 1.30.*), installed in its own venv under
  $CAPSTAN_TEST_CACHE/bench-peer (default ~/.cache/capstan/bench-peer), never globally,
  with telemetry disabled (DISABLE_TELEMETRY=true) and HOME pointed at a scratch
  folder. Its stub speaks the add-on's socket protocol (one JSON document each way on
  a kept connection) and answers the same scene in blender-mcp's add-on shape (name,
  object_count, objects with name/type/location, materials_count), and
  `get_polyhaven_status` (blender-mcp sends it before every command to check the
  connection). blender-mcp runs as shipped (its INFO logging to stderr included).
- One raw JSON-RPC client (one line per message, buffered reads) drives both. Each
  stub runs in its own process. Between calls the client also times each stub's bare
  round trip (the cost under either server), so capstan's own share is its call
  minus its stub's round trip, in the same run. It also calls capstan's
  `router_get_status` and MCP's `ping` each round; `--no-status` leaves the status
  call out (it warms capstan's caches for the execute that follows: host/BENCHMARKS.md).
- `--pure` alternates the calls alone (capstan, blender-mcp, ...): nothing is timed
  between them, so every call finds its server as the other's call left the machine.
- `--floor` adds a third server, `scripts/bench_floor` (built here with cargo, fat
  LTO): the least a Rust MCP server can do for the same call (its module doc), against
  capstan's stub. With `--pure` it is timed right after a blender-mcp call, as capstan
  is, so compare the two there (blender-mcp is then called twice a round, and its
  median is over both); without it, right after the capstan stub's bare round trip
  (which warms the stub it calls next). For a comparison in capstan's own place, pass
  the floor as `--capstan` with `--no-status` (it answers every tool call as
  `scene.info`, so not with the status call in the loop).

Measure the shipped build: `cargo bench` writes its bench-profile binaries (no LTO) to
target/release/ over the fat-LTO `capstan`, so run `cargo build --release -p capstan`
after any `cargo bench` (host/BENCHMARKS.md).

Loopback only: every socket is 127.0.0.1. Prints the medians and the ratio as JSON on
stdout (the last line).
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RECORDED = REPO / "host/tests/data/blender_factory_scene.json"
PEER_VERSION = "1.6.0"
MCP_VERSION = "1.30.*"
TOKEN = "bench-peer-token-0123456789abcdef0123"


# ---------------------------------------------------------------- stubs (own processes)

def serve_capstan_stub(port_file):
    """capstan's bridge protocol: HTTP/1.1 keep-alive, /ping and POST /bridge."""
    doc = json.loads(RECORDED.read_text())
    ping = dict(doc["ping"], pid=os.getpid())
    ping_bytes = json.dumps(ping).encode()
    # The answer is the recorded bytes; only the request's id is put in.
    scene_tail = (', "ok": true, "result": ' + json.dumps(doc["get_scene_info"]["result"]) + "}").encode()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    Path(port_file).write_text(str(listener.getsockname()[1]))

    def handle(conn):
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buf = b""
        while True:
            while b"\r\n\r\n" not in buf:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buf += chunk
            head, _, rest = buf.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            while len(rest) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                rest += chunk
            body, buf = rest[:length], rest[length:]
            if (b"Bearer " + TOKEN.encode()) not in head:
                status, out = b"401 Unauthorized", b'{"ok": false, "error": {"code": "unauthorized", "message": "token"}}'
            elif head.startswith(b"GET /ping"):
                status, out = b"200 OK", ping_bytes
            else:
                request = json.loads(body)
                if request.get("command") == "get_scene_info" and not request.get("params"):
                    out = b'{"id": ' + json.dumps(request["id"]).encode() + scene_tail
                else:
                    out = json.dumps({"id": request.get("id"), "ok": False, "error": {"code": "unknown_command", "message": "not recorded"}}).encode()
                status = b"200 OK"
            conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(out)).encode() + b"\r\n\r\n" + out)

    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def peer_scene(doc):
    """The recorded scene in blender-mcp's add-on answer shape."""
    result = doc["get_scene_info"]["result"]
    objects = [{"name": o["name"], "type": o["type"], "location": [round(v, 2) for v in o["location"]]} for o in result["objects"][:10]]
    materials = sorted({m for o in result["objects"] for m in o["materials"]})
    return {"name": result["scene"], "object_count": result["object_count"], "objects": objects, "materials_count": len(materials)}


def serve_peer_stub(port_file):
    """blender-mcp's add-on protocol: one JSON command in, one JSON answer out."""
    scene = json.dumps({"status": "success", "result": peer_scene(json.loads(RECORDED.read_text()))}).encode()
    polyhaven = json.dumps({"status": "success", "result": {"enabled": False, "message": "PolyHaven integration is disabled"}}).encode()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    Path(port_file).write_text(str(listener.getsockname()[1]))
    decoder = json.JSONDecoder()

    def handle(conn):
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buf = ""
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                return
            buf += chunk.decode()
            while buf:
                try:
                    command, end = decoder.raw_decode(buf)
                except ValueError:
                    break
                buf = buf[end:].lstrip()
                kind = command.get("type")
                out = scene if kind == "get_scene_info" else polyhaven if kind == "get_polyhaven_status" else json.dumps({"status": "error", "message": f"not recorded: {kind}"}).encode()
                conn.sendall(out)

    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def start_stub(kind, scratch):
    port_file = Path(scratch) / f"{kind}.port"
    proc = subprocess.Popen([sys.executable, __file__, f"--serve-{kind}-stub", str(port_file)], stdin=subprocess.DEVNULL)
    for _ in range(200):
        if port_file.exists() and port_file.read_text():
            return proc, int(port_file.read_text())
        time.sleep(0.02)
    raise SystemExit(f"the {kind} stub did not start")


# ---------------------------------------------------------------- the one raw client

class RawClient:
    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=65536)
        self.next_id = 0
        init = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench-peer", "version": "0"}})
        assert "result" in init, init
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"{self.proc.args[0]} closed stdout")
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                return msg

    def call_tool(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def close(self):
        self.proc.kill()
        self.proc.wait()


class BareCapstanStub:
    """A bare keep-alive HTTP client: the capstan stub's own round trip."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        body = json.dumps({"id": "bare", "command": "get_scene_info", "params": {}}).encode()
        self.request = b"POST /bridge HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body

    def round_trip(self):
        self.sock.sendall(self.request)
        buf = b""
        while True:
            buf += self.sock.recv(65536)
            head, sep, rest = buf.partition(b"\r\n\r\n")
            if sep:
                length = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0].split(b":")[1])
                if len(rest) >= length:
                    return


class BarePeerStub:
    """A bare client of the add-on protocol: the peer stub's own round trip (blender-mcp
    makes two per call: get_polyhaven_status, then the command)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def round_trip(self, kind="get_scene_info"):
        self.sock.sendall(json.dumps({"type": kind, "params": {}}).encode())
        buf = b""
        while True:
            buf += self.sock.recv(65536)
            try:
                return json.loads(buf)
            except ValueError:
                continue


# ---------------------------------------------------------------- setup and the run

def peer_venv(cache):
    venv = cache / f"venv-blender-mcp-{PEER_VERSION}"
    exe = venv / "bin/blender-mcp"
    if not exe.exists():
        print(f"bench_peer: installing blender-mcp=={PEER_VERSION} mcp=={MCP_VERSION} into {venv}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", str(venv)])
        subprocess.check_call([str(venv / "bin/pip"), "install", "--quiet", "--disable-pip-version-check", f"blender-mcp=={PEER_VERSION}", f"mcp=={MCP_VERSION}"])
    return exe


def build_floor():
    """scripts/bench_floor, built with its own lock file into target/bench-floor."""
    manifest = REPO / "scripts/bench_floor/Cargo.toml"
    target = REPO / "target/bench-floor"
    subprocess.check_call(["cargo", "build", "--release", "--locked", "--quiet", "--manifest-path", str(manifest)],
                          env=dict(os.environ, CARGO_TARGET_DIR=str(target)))
    return target / "release/bench-floor"


def capstan_home(scratch, port):
    home = Path(scratch) / "capstan-home"
    run = home / "run/blender"
    run.mkdir(parents=True)
    for p in (home, home / "run", run):
        p.chmod(0o700)
    doc = {"http": f"http://127.0.0.1:{port}", "token": TOKEN, "pid": 0, "protocol": 1, "app_version": "5.2.4 LTS"}
    return home, run, doc


def ms(values):
    return round(statistics.median(values) * 1000, 3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capstan", default=str(REPO / "target/release/capstan"))
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--no-status", action="store_true", help="leave router_get_status out of the loop")
    ap.add_argument("--pure", action="store_true", help="alternate the calls alone, nothing timed between them")
    ap.add_argument("--floor", action="store_true", help="add scripts/bench_floor, the least a Rust MCP server can do")
    ap.add_argument("--cache", default=os.environ.get("CAPSTAN_TEST_CACHE", str(Path.home() / ".cache/capstan")))
    args = ap.parse_args()
    peer = peer_venv(Path(args.cache) / "bench-peer")

    with tempfile.TemporaryDirectory(prefix="bench-peer-") as scratch:
        os.chmod(scratch, 0o700)
        cstub, cport = start_stub("capstan", scratch)
        pstub, pport = start_stub("peer", scratch)
        try:
            home, run, doc = capstan_home(scratch, cport)
            doc["pid"] = cstub.pid
            (run / "server.json").write_text(json.dumps(doc))
            (run / "server.json").chmod(0o600)
            cenv = dict(os.environ, CAPSTAN_HOME=str(home), RUST_LOG="warn")
            peer_home = Path(scratch) / "peer-home"
            peer_home.mkdir()
            penv = dict(os.environ, HOME=str(peer_home), XDG_DATA_HOME=str(peer_home / "share"), DISABLE_TELEMETRY="true",
                        BLENDER_HOST="127.0.0.1", BLENDER_PORT=str(pport))
            floor_exe = build_floor() if args.floor else None
            capstan = RawClient([args.capstan, "serve"], cenv)
            floor = RawClient([str(floor_exe)], cenv) if floor_exe else None
            blender_mcp = RawClient([str(peer)], penv)
            bare_c, bare_p = BareCapstanStub(cport), BarePeerStub(pport)

            def capstan_call():
                r = capstan.call_tool("execute_capability", {"key": "scene.info", "arguments": {}})
                assert r["result"]["isError"] is False, r
                return r

            def peer_call():
                r = blender_mcp.call_tool("get_scene_info", {"user_prompt": "what is in the scene"})
                text = r["result"]["content"][0]["text"]
                assert '"object_count": 3' in text, r
                return r

            def capstan_status():
                return capstan.call_tool("router_get_status", {})

            def capstan_ping():
                return capstan.request("ping", {})

            def floor_call():
                r = floor.call_tool("execute_capability", {"key": "scene.info", "arguments": {}})
                assert r["result"]["structuredContent"]["result"]["object_count"] == 3, r
                return r

            if args.pure:
                rounds = [("capstan", capstan_call), ("blender_mcp", peer_call)] + ([("floor", floor_call), ("blender_mcp", peer_call)] if floor else [])
            else:
                rounds = [("capstan", capstan_call), ("blender_mcp", peer_call), ("capstan_stub", bare_c.round_trip), ("peer_stub", bare_p.round_trip),
                          ("capstan_status", capstan_status), ("capstan_ping", capstan_ping)]
                if floor:
                    rounds[3:3] = [("floor", floor_call)]
                if args.no_status:
                    rounds = [(name, fn) for name, fn in rounds if name != "capstan_status"]
            for _ in range(args.warmup):
                for _, fn in rounds:
                    fn()
            times = {name: [] for name, _ in rounds}
            for _ in range(args.calls):
                for name, fn in rounds:
                    t = time.perf_counter()
                    fn()
                    times[name].append(time.perf_counter() - t)
            capstan.close()
            if floor:
                floor.close()
            blender_mcp.close()
        finally:
            cstub.kill()
            pstub.kill()

    def med(name):
        return ms(times[name]) if name in times else None

    def ratio_over(name):
        # From the unrounded medians; null when `name` was not in the loop.
        return round(statistics.median(times["blender_mcp"]) / statistics.median(times[name]), 2) if name in times else None

    out = {
        "calls": args.calls,
        "mode": "pure" if args.pure else ("no-status" if args.no_status else "default"),
        "capstan_execute_capability_ms": med("capstan"),
        "blender_mcp_get_scene_info_ms": med("blender_mcp"),
        # The bare stub round trips, capstan's status and MCP's `ping` (the cost under
        # every tool, answered by the MCP layer alone): null when left out of the loop.
        "capstan_stub_round_trip_ms": med("capstan_stub"),
        "peer_stub_round_trip_ms": med("peer_stub"),
        "capstan_own_share_ms": round(med("capstan") - med("capstan_stub"), 3) if "capstan_stub" in times else None,
        "capstan_router_get_status_ms": med("capstan_status"),
        "capstan_mcp_ping_ms": med("capstan_ping"),
        "ratio_blender_mcp_over_capstan": ratio_over("capstan"),
        # scripts/bench_floor, with --floor: the least a Rust MCP server can do here.
        "floor_execute_ms": med("floor"),
        "ratio_blender_mcp_over_floor": ratio_over("floor"),
        "load_average": os.getloadavg(),
    }
    print(f"bench_peer ({out['mode']}): {args.calls} alternated calls each, medians: capstan {out['capstan_execute_capability_ms']} ms, "
          f"blender-mcp {out['blender_mcp_get_scene_info_ms']} ms, ratio {out['ratio_blender_mcp_over_capstan']}x"
          + (f"; the floor {out['floor_execute_ms']} ms, {out['ratio_blender_mcp_over_floor']}x" if out["floor_execute_ms"] is not None else "")
          + (f"; capstan's stub {out['capstan_stub_round_trip_ms']} ms, capstan's own share {out['capstan_own_share_ms']} ms" if out["capstan_own_share_ms"] is not None else ""), file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve-capstan-stub":
        serve_capstan_stub(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "--serve-peer-stub":
        serve_peer_stub(sys.argv[2])
    else:
        main()
