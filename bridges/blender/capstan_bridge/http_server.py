"""The HTTP side of capstan-bridge/1: loopback only, bearer token, size-capped.

Security reasoning:
- It binds 127.0.0.1 and nothing else; the port is 9876 or the next free one up to
  9885, or exactly the one asked for.
- Every route needs the token (compared in constant time); a wrong or missing token
  gets 401 and nothing runs.
- A body over MAX_BODY_BYTES gets 413 without being read.
- `/ping` is answered on the server thread from values captured at start, so it never
  waits behind a render.
- Requests and headers are never logged (the token travels in a header).
- Connections are kept alive for the host (it reuses one per bridge), closed after
  IDLE_CONNECTION_SECONDS of silence, and all closed when the bridge stops: a kept
  connection must never outlive the runtime file that authorised it.

Under load (protocol.py holds the numbers):
- At most MAX_CONNECTIONS connections get a thread of their own. One more is not
  refused at the door: it goes to the overflow (`_Overflow`), one thread that serves
  every excess connection at once with non-blocking sockets. It reads one request
  head within OVERFLOW_READ_SECONDS, answers an authorised `GET /ping` as usual and
  everything else with 503, and closes. So a flood of connections costs one thread,
  not one each, and `/ping` keeps answering while the cap is hit.
- A request must arrive whole (request line, headers and body) within
  REQUEST_READ_SECONDS of its first byte: the deadline is set once per request, not
  per read, so a client sending one byte at a time is cut off all the same.
"""

import hmac
import io
import json
import selectors
import socket
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import protocol


def _authorized(header, token):
    scheme, _, value = (header or "").partition(" ")
    return scheme == "Bearer" and hmac.compare_digest(value.strip().encode(), token.encode())


def _response(status, reason, doc):
    body = json.dumps(doc).encode("utf-8")
    head = "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % (status, reason, len(body))
    return head.encode("ascii") + body


class _Overflow:
    """One thread for every connection beyond the cap (see the module doc)."""

    def __init__(self, server):
        self._server = server
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._count = 0
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._pending = []
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="capstan-bridge-overflow", daemon=True)
        self._thread.start()

    def add(self, sock):
        with self._lock:
            if self._closed or self._count >= protocol.MAX_OVERFLOW_CONNECTIONS:
                sock.close()
                return
            self._count += 1
            self._pending.append(sock)
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass

    def close(self):
        with self._lock:
            self._closed = True
        try:
            self._wake_w.send(b"x")
        except OSError:
            pass

    def _adopt(self):
        with self._lock:
            pending, self._pending = self._pending, []
        for sock in pending:
            sock.setblocking(False)
            state = {"in": b"", "out": None, "deadline": time.monotonic() + protocol.OVERFLOW_READ_SECONDS}
            self._selector.register(sock, selectors.EVENT_READ, state)

    def _finish(self, sock):
        try:
            self._selector.unregister(sock)
        except (KeyError, ValueError):
            pass
        try:
            sock.close()
        except OSError:
            pass
        with self._lock:
            self._count -= 1

    def _answer(self, head):
        lines = head.decode("latin-1").split("\r\n")
        method, _, rest = lines[0].partition(" ")
        path = rest.partition(" ")[0]
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        if method == "GET" and path == protocol.PING_PATH:
            if _authorized(headers.get("authorization"), self._server.bridge.token):
                return _response(200, "OK", self._server.bridge.ping())
            return _response(401, "Unauthorized", {"ok": False, "error": {"code": "unauthorized", "message": "missing or wrong bearer token"}})
        return _response(503, "Service Unavailable", {"ok": False, "error": {"code": "busy", "message": "the bridge has too many connections open; try again"}})

    def _run(self):
        while True:
            with self._lock:
                if self._closed:
                    break
            for key, events in self._selector.select(timeout=0.25):
                if key.data is None:
                    try:
                        while self._wake_r.recv(4096):
                            pass
                    except BlockingIOError:
                        pass
                    self._adopt()
                    continue
                self._step(key.fileobj, key.data, events)
            now = time.monotonic()
            for key in list(self._selector.get_map().values()):
                if key.data is not None and now > key.data["deadline"]:
                    self._finish(key.fileobj)
        for key in list(self._selector.get_map().values()):
            if key.data is not None:
                self._finish(key.fileobj)

    def _step(self, sock, state, events):
        try:
            if state["out"] is None and events & selectors.EVENT_READ:
                chunk = sock.recv(4096)
                if not chunk:
                    self._finish(sock)
                    return
                state["in"] += chunk
                end = state["in"].find(b"\r\n\r\n")
                if end < 0 and len(state["in"]) > protocol.OVERFLOW_MAX_HEAD_BYTES:
                    self._finish(sock)
                    return
                if end >= 0:
                    state["out"] = self._answer(state["in"][:end])
                    self._selector.modify(sock, selectors.EVENT_WRITE, state)
            elif state["out"] is not None and events & selectors.EVENT_WRITE:
                sent = sock.send(state["out"])
                state["out"] = state["out"][sent:]
                if not state["out"]:
                    self._finish(sock)
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self._finish(sock)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    bridge = None

    def __init__(self, *args, **kwargs):
        self._open = set()
        self._open_lock = threading.Lock()
        self.closing = False
        super().__init__(*args, **kwargs)
        self.overflow = _Overflow(self)

    def process_request(self, request, client_address):
        with self._open_lock:
            if self.closing:
                self.shutdown_request(request)
                return
            if len(self._open) >= protocol.MAX_CONNECTIONS:
                # No thread for this one: the overflow answers it (ping or 503).
                self.overflow.add(request)
                return
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def open_connections(self):
        with self._open_lock:
            return len(self._open)

    def close_connections(self):
        """Refuse new connections and cut every open one (kept-alive included)."""
        with self._open_lock:
            self.closing = True
            open_now = list(self._open)
        self.overflow.close()
        for request in open_now:
            try:
                request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _DeadlineReader(io.RawIOBase):
    """The socket as read by one request: idle for up to IDLE_CONNECTION_SECONDS
    before its first byte, then REQUEST_READ_SECONDS for the whole request however
    the bytes are spread out (`deadline` is set by the first byte, cleared per request)."""

    def __init__(self, sock):
        super().__init__()
        self._sock = sock
        self.deadline = None

    def readable(self):
        return True

    def readinto(self, buffer):
        if self.deadline is None:
            self._sock.settimeout(protocol.IDLE_CONNECTION_SECONDS)
        else:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request was not read within %s s" % protocol.REQUEST_READ_SECONDS)
            self._sock.settimeout(left)
        n = self._sock.recv_into(buffer)
        if n and self.deadline is None:
            self.deadline = time.monotonic() + protocol.REQUEST_READ_SECONDS
        return n


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = protocol.IDLE_CONNECTION_SECONDS
    # On a kept-alive connection the headers and the body are two writes; with Nagle
    # the second waits for the client's delayed ACK (40 ms per answer).
    disable_nagle_algorithm = True
    server_version = "capstan-bridge/1"
    sys_version = ""

    def setup(self):
        super().setup()
        # Replace the plain reader (whose timeout restarts on every read) and close it,
        # so it holds no reference on the socket.
        plain, self._reader = self.rfile, _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self._reader)
        plain.close()

    def handle_one_request(self):
        self._reader.deadline = None
        try:
            super().handle_one_request()
        except (TimeoutError, ConnectionError):
            # Too slow, or gone: nothing was run, and there is nobody to answer.
            self.close_connection = True

    def log_message(self, fmt, *args):  # never log requests (headers carry the token)
        pass

    def _send(self, status, doc):
        body = json.dumps(doc).encode("utf-8")
        self.connection.settimeout(protocol.WRITE_SECONDS)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self):
        return _authorized(self.headers.get("Authorization", ""), self.server.bridge.token)

    def _refuse_unauthorized(self):
        self.close_connection = True
        self._send(401, {"ok": False, "error": {"code": "unauthorized", "message": "missing or wrong bearer token"}})

    def do_GET(self):
        if self.path != protocol.PING_PATH:
            self._send(404, {"ok": False, "error": {"code": "not_found", "message": "no such path"}})
            return
        if not self._authorized():
            self._refuse_unauthorized()
            return
        self._send(200, self.server.bridge.ping())

    def do_POST(self):
        if self.path != protocol.BRIDGE_PATH:
            self.close_connection = True
            self._send(404, {"ok": False, "error": {"code": "not_found", "message": "no such path"}})
            return
        if not self._authorized():
            self._refuse_unauthorized()
            return
        if self.server.closing:
            self.close_connection = True
            self._send(503, {"ok": False, "error": {"code": "stopping", "message": "the bridge is stopping"}})
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.close_connection = True
            self._send(411, {"ok": False, "error": {"code": "length_required", "message": "Content-Length is required"}})
            return
        if length < 0 or length > protocol.MAX_BODY_BYTES:
            self.close_connection = True
            self._send(413, {"ok": False, "error": {"code": "too_large", "message": "body over %d bytes" % protocol.MAX_BODY_BYTES}})
            return
        body = self.rfile.read(length)
        if len(body) < length:
            self.close_connection = True
            return
        # The request is read: whatever the command takes, no deadline runs meanwhile.
        self._reader.deadline = None
        status, doc = self.server.bridge.handle_request(body)
        self._send(status, doc)


def bind(bridge, port=None):
    """Bind the first free loopback port (or exactly `port`)."""
    ports = [port] if port else range(protocol.FIRST_PORT, protocol.LAST_PORT + 1)
    last_error = None
    for p in ports:
        try:
            server = _Server((protocol.HOST, p), _Handler)
        except OSError as e:
            last_error = e
            continue
        server.bridge = bridge
        return server
    raise OSError("no free port in %s: %s" % (list(ports), last_error))


__all__ = ["bind", "socketserver"]
