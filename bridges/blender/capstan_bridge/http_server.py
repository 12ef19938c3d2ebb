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
"""

import hmac
import json
import socket
import socketserver
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import protocol


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    bridge = None

    def __init__(self, *args, **kwargs):
        self._open = set()
        self._open_lock = threading.Lock()
        self.closing = False
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        with self._open_lock:
            if self.closing:
                self.shutdown_request(request)
                return
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self):
        """Refuse new connections and cut every open one (kept-alive included)."""
        with self._open_lock:
            self.closing = True
            open_now = list(self._open)
        for request in open_now:
            try:
                request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = protocol.IDLE_CONNECTION_SECONDS
    # On a kept-alive connection the headers and the body are two writes; with Nagle
    # the second waits for the client's delayed ACK (40 ms per answer).
    disable_nagle_algorithm = True
    server_version = "capstan-bridge/1"
    sys_version = ""

    def log_message(self, fmt, *args):  # never log requests (headers carry the token)
        pass

    def _send(self, status, doc):
        body = json.dumps(doc).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _authorized(self):
        header = self.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        expected = self.server.bridge.token
        return scheme == "Bearer" and hmac.compare_digest(token.strip().encode(), expected.encode())

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
