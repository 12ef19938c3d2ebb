"""The HTTP side of capstan-bridge/1: loopback only, bearer token, size-capped.

Security reasoning:
- It binds 127.0.0.1 and nothing else; the port is 9876 or the next free one up to
  9885, or exactly the one asked for, or the listening socket the launching capstan
  handed over.
- Every route needs the token (compared in constant time); a wrong or missing token
  gets 401 and nothing runs.
- A body over MAX_BODY_BYTES gets 413 without being read.
- `/ping` is answered from values captured at start, on the front door's thread, so it
  never waits behind a render.
- Requests and headers are never logged (the token travels in a header).
- Connections are kept alive for the host (it reuses one per bridge), closed after
  IDLE_CONNECTION_SECONDS of silence, and all closed when the bridge stops: a kept
  connection must never outlive the runtime file that authorised it.

Under load (issue 26, finding 4: 32 idle connections without a token held every
thread, and every capability call failed with `busy`; protocol.py holds the numbers):
- Every connection starts at the front door (`_FrontDoor`): one thread that serves
  every connection with no request in progress, with non-blocking sockets. A
  connection must deliver a whole request head within FIRST_HEAD_SECONDS of being
  accepted, or is closed unanswered; a byte at a time does not stretch that (the
  deadline is set once). A kept-alive connection waits there between requests, idle
  for up to IDLE_CONNECTION_SECONDS, then has FIRST_HEAD_SECONDS from its next first
  byte.
- The front door reads the head and judges it before any thread is involved: a missing
  or wrong token gets 401 at once, and the connection is closed; an authorised
  `GET /ping` is answered there. Only an authorised request for anything else takes
  one of the MAX_CONNECTIONS request threads, from its complete head to its answer;
  with none free it gets 503 `busy`. So nobody without the token ever holds a thread,
  and neither does an idle kept-alive connection: between requests it is back at the
  front door.
- The front door holds at most MAX_WAITING_CONNECTIONS; to make room for a new one it
  closes the connection that has waited longest for its head, or else the kept-alive
  one idle the longest (its client reconnects: nothing was read of a request on it, so
  nothing was run, and the host retries a reused connection closed without an answer).
- A request's body must arrive whole within REQUEST_READ_SECONDS of its first byte,
  however slowly its bytes come.
"""

import hmac
import json
import selectors
import socket
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from . import protocol


def _authorized(header, token):
    scheme, _, value = (header or "").partition(" ")
    return scheme == "Bearer" and hmac.compare_digest(value.strip().encode(), token.encode())


def _response(status, reason, doc, close):
    body = json.dumps(doc).encode("utf-8")
    head = "HTTP/1.1 %d %s\r\nServer: capstan-bridge/1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n%s\r\n" % (
        status, reason, len(body), "Connection: close\r\n" if close else "")
    return head.encode("ascii") + body


UNAUTHORIZED = {"ok": False, "error": {"code": "unauthorized", "message": "missing or wrong bearer token"}}
BUSY = {"ok": False, "error": {"code": "busy", "message": "the bridge has too many requests in progress; try again"}}
STOPPING = {"ok": False, "error": {"code": "stopping", "message": "the bridge is stopping"}}


class _Head:
    """A request head as the front door reads it (request line and headers)."""

    def __init__(self, raw):
        lines = raw.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        self.method = parts[0] if parts else ""
        self.path = parts[1] if len(parts) > 1 else ""
        self.version = parts[2] if len(parts) > 2 else "HTTP/0.9"
        self.headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                self.headers[name.strip().lower()] = value.strip()

    def keeps_alive(self):
        connection = self.headers.get("connection", "").lower()
        return self.version == "HTTP/1.1" and "close" not in connection


class _Waiting:
    """One connection at the front door."""

    def __init__(self, sock, address, buffered, kept, now):
        self.sock = sock
        self.address = address
        self.buffered = buffered
        self.kept = kept  # between requests (True) or new (False)
        self.since = now
        self.first_byte_at = now if (buffered or not kept) else None
        self.out = None  # an answer being written
        self.then = None  # after it: "keep", "linger" or "close"
        self.linger_until = None

    def deadline(self):
        if self.linger_until is not None:
            return self.linger_until
        if self.out is not None:
            return self.since + protocol.WRITE_SECONDS
        if self.first_byte_at is None:
            return self.since + protocol.IDLE_CONNECTION_SECONDS
        return self.first_byte_at + protocol.FIRST_HEAD_SECONDS

    def evictable(self):
        return self.out is None and self.linger_until is None


class _FrontDoor:
    """The one thread that holds every connection with no request in progress (see the
    module doc)."""

    def __init__(self, server):
        self._server = server
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._waiting = {}  # socket -> _Waiting (front-door thread only)
        self._pending = []  # (socket, address, buffered, kept) handed in by other threads
        self._count = 0  # connections held or pending
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="capstan-bridge-front-door", daemon=True)
        self._thread.start()

    # -- other threads ------------------------------------------------------------

    def add(self, sock, address, buffered=b"", kept=False, linger=False):
        """Take a connection: a new one (from accept), a kept-alive one back from a
        request thread with the bytes already read past its last request, or one that
        thread answered and closes (`linger`)."""
        with self._lock:
            if self._closed:
                _close(sock)
                return
            self._count += 1
            self._pending.append((sock, address, buffered, kept, linger))
        self._wake()

    def waiting(self):
        with self._lock:
            return self._count

    def close(self):
        """Close every connection held here and stop the thread (waits for it)."""
        with self._lock:
            self._closed = True
        self._wake()
        if threading.current_thread() is not self._thread:
            self._thread.join(5.0)

    def _wake(self):
        try:
            self._wake_w.send(b"x")
        except OSError:  # full (it is woken already) or closed
            pass

    # -- the front-door thread ------------------------------------------------------

    def _run(self):
        try:
            while True:
                with self._lock:
                    if self._closed:
                        break
                for key, events in self._selector.select(timeout=0.1):
                    if key.data is None:
                        self._drain_wake()
                        continue
                    if key.fileobj in self._waiting:
                        self._safely(key.data, self._step, key.data, events)
                self._adopt()
                self._expire()
        finally:
            for conn in list(self._waiting.values()):
                self._drop(conn)
            with self._lock:
                pending, self._pending = self._pending, []
            for entry in pending:
                _close(entry[0])
            self._selector.close()
            self._wake_r.close()
            self._wake_w.close()

    def _safely(self, conn, step, *args):
        """One step for one connection; a fault in it (a bug, never the client's bytes
        alone) closes that connection, not the front door."""
        try:
            step(*args)
        except Exception as e:
            sys.stderr.write("capstan bridge: a connection was closed after an internal error: %s\n" % type(e).__name__)
            self._drop(conn)

    def _drain_wake(self):
        try:
            while self._wake_r.recv(4096):
                pass
        except (BlockingIOError, InterruptedError):
            pass

    def _adopt(self):
        with self._lock:
            pending, self._pending = self._pending, []
        now = time.monotonic()
        for sock, address, buffered, kept, linger in pending:
            while len(self._waiting) >= protocol.MAX_WAITING_CONNECTIONS:
                if not self._evict_one():
                    break
            if len(self._waiting) >= protocol.MAX_WAITING_CONNECTIONS:
                _close(sock)
                with self._lock:
                    self._count -= 1
                continue
            try:
                sock.setblocking(False)
            except OSError:
                _close(sock)
                with self._lock:
                    self._count -= 1
                continue
            conn = _Waiting(sock, address, buffered, kept, now)
            self._waiting[sock] = conn
            self._selector.register(sock, selectors.EVENT_READ, conn)
            if linger:
                self._safely(conn, self._answered, conn)
            elif buffered:
                self._safely(conn, self._judge, conn)

    def _evict_one(self):
        """Close the connection that has waited longest for its head, else the kept
        one idle longest; False when none can go."""
        candidates = [c for c in self._waiting.values() if c.evictable()]
        if not candidates:
            return False
        new = [c for c in candidates if not c.kept or c.first_byte_at is not None]
        victim = min(new or candidates, key=lambda c: c.since)
        self._drop(victim)
        return True

    def _expire(self):
        now = time.monotonic()
        for conn in list(self._waiting.values()):
            if now >= conn.deadline():
                self._drop(conn)

    def _drop(self, conn):
        if self._waiting.pop(conn.sock, None) is None:
            return
        try:
            self._selector.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        _close(conn.sock)
        with self._lock:
            self._count -= 1

    def _release(self, conn):
        """The connection leaves the front door for a request thread."""
        self._waiting.pop(conn.sock, None)
        try:
            self._selector.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        with self._lock:
            self._count -= 1

    def _step(self, conn, events):
        try:
            if conn.linger_until is not None:
                if not conn.sock.recv(65536):
                    self._drop(conn)
                return
            if conn.out is not None:
                if events & selectors.EVENT_WRITE:
                    sent = conn.sock.send(conn.out)
                    conn.out = conn.out[sent:]
                    if not conn.out:
                        self._answered(conn)
                return
            chunk = conn.sock.recv(65536)
            if not chunk:
                self._drop(conn)
                return
            if conn.first_byte_at is None:
                conn.first_byte_at = time.monotonic()
            conn.buffered += chunk
            self._judge(conn)
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self._drop(conn)

    def _judge(self, conn):
        """Act on a complete head: 401, ping, or a request thread."""
        end = conn.buffered.find(b"\r\n\r\n")
        if end < 0:
            if len(conn.buffered) > protocol.MAX_HEAD_BYTES:
                self._drop(conn)
            return
        if end > protocol.MAX_HEAD_BYTES:
            self._drop(conn)
            return
        head = _Head(conn.buffered[:end])
        bridge = self._server.bridge
        if not _authorized(head.headers.get("authorization"), bridge.token):
            self._answer(conn, _response(401, "Unauthorized", UNAUTHORIZED, True), "linger")
            return
        if head.method == "GET" and head.path == protocol.PING_PATH:
            keep = head.keeps_alive() and not self._server.closing
            conn.buffered = conn.buffered[end + 4:]
            self._answer(conn, _response(200, "OK", bridge.ping(), not keep), "keep" if keep else "linger")
            return
        if self._server.closing:
            self._answer(conn, _response(503, "Service Unavailable", STOPPING, True), "linger")
            return
        buffered, first_byte_at = conn.buffered, conn.first_byte_at
        self._release(conn)
        if not self._server.dispatch(conn.sock, conn.address, buffered, first_byte_at):
            # No request thread free: answered here, the connection back at the door.
            with self._lock:
                self._count += 1
            conn.buffered = b""
            self._waiting[conn.sock] = conn
            self._selector.register(conn.sock, selectors.EVENT_READ, conn)
            self._answer(conn, _response(503, "Service Unavailable", BUSY, True), "linger")

    def _answer(self, conn, data, then):
        conn.out, conn.then = data, then
        conn.since = time.monotonic()
        self._selector.modify(conn.sock, selectors.EVENT_WRITE, conn)

    def _answered(self, conn):
        if conn.then == "keep":
            now = time.monotonic()
            conn.out, conn.then, conn.kept, conn.since = None, None, True, now
            conn.first_byte_at = now if conn.buffered else None
            self._selector.modify(conn.sock, selectors.EVENT_READ, conn)
            if conn.buffered:
                self._judge(conn)
            return
        # Closing: stop writing, and read what the client still sends until it closes
        # too (a request body nobody read would turn the close into a reset).
        conn.out, conn.then = None, None
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self._drop(conn)
            return
        conn.linger_until = time.monotonic() + protocol.LINGER_SECONDS
        self._selector.modify(conn.sock, selectors.EVENT_READ, conn)


def _close(sock):
    try:
        sock.close()
    except OSError:
        pass


class _RequestReader:
    """A request's bytes for BaseHTTPRequestHandler: first what the front door read,
    then the socket, all of it within REQUEST_READ_SECONDS of the request's first byte.
    It never reads past what it is asked for by more than one `recv`, and what it read
    beyond the request goes back to the front door with the connection (`leftover`)."""

    def __init__(self, sock, buffered, first_byte_at):
        self._sock = sock
        self._buffer = bytearray(buffered)
        self._deadline = first_byte_at + protocol.REQUEST_READ_SECONDS
        self.closed = False

    def _fill(self):
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not read within %s s" % protocol.REQUEST_READ_SECONDS)
        self._sock.settimeout(left)
        chunk = self._sock.recv(65536)
        self._buffer += chunk
        return len(chunk)

    def readline(self, limit=-1):
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 and (limit < 0 or end < limit):
                size = end + 1
                break
            if 0 <= limit <= len(self._buffer):
                size = limit
                break
            if not self._fill():
                size = len(self._buffer)
                break
        line = bytes(self._buffer[:size])
        del self._buffer[:size]
        return line

    def read(self, n=-1):
        if n is None or n < 0:
            raise ValueError("a request is read by length")
        while len(self._buffer) < n:
            if not self._fill():
                break
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def leftover(self):
        return bytes(self._buffer)

    def close(self):
        self.closed = True


class _Writer:
    """The socket as the handler's `wfile` (unbuffered: each write is sent whole)."""

    def __init__(self, sock):
        self._sock = sock
        self.closed = False

    def write(self, data):
        self._sock.sendall(data)
        return len(data)

    def flush(self):
        pass

    def close(self):
        self.closed = True


class _Handler(BaseHTTPRequestHandler):
    """Runs exactly one request whose head the front door judged (authorised, not a
    ping); the connection then goes back to the front door or is closed."""

    protocol_version = "HTTP/1.1"
    server_version = "capstan-bridge/1"
    sys_version = ""

    def __init__(self, sock, address, server, reader):
        self._reader = reader
        super().__init__(sock, address, server)

    def setup(self):
        self.connection = self.request
        # Headers and body are two writes; with Nagle the second waits for the
        # client's delayed ACK (40 ms per answer).
        try:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
        except OSError:
            pass
        self.rfile = self._reader
        self.wfile = _Writer(self.connection)

    def handle(self):
        self.close_connection = True
        try:
            self.handle_one_request()
        except (TimeoutError, ConnectionError):
            # Too slow, or gone: nothing was run, and there is nobody to answer.
            self.close_connection = True

    def finish(self):
        pass  # the socket is the server's to keep or close

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
        self._send(401, UNAUTHORIZED)

    def do_GET(self):
        if not self._authorized():
            self._refuse_unauthorized()
            return
        if self.path != protocol.PING_PATH:
            self._send(404, {"ok": False, "error": {"code": "not_found", "message": "no such path"}})
            return
        self._send(200, self.server.bridge.ping())

    def do_POST(self):
        if not self._authorized():
            self._refuse_unauthorized()
            return
        if self.path != protocol.BRIDGE_PATH:
            self.close_connection = True
            self._send(404, {"ok": False, "error": {"code": "not_found", "message": "no such path"}})
            return
        if self.server.closing:
            self.close_connection = True
            self._send(503, STOPPING)
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
        status, doc = self.server.bridge.handle_request(body)
        self._send(status, doc)


class _Server(socketserver.TCPServer):
    """Accepts on the listening socket and hands every connection to the front door;
    runs authorised requests on threads of their own, at most MAX_CONNECTIONS."""

    allow_reuse_address = False
    request_queue_size = 128
    bridge = None

    def __init__(self, *args, **kwargs):
        self._open = set()  # sockets with a request in a thread
        self._open_lock = threading.Lock()
        self.closing = False
        super().__init__(*args, **kwargs)
        self.front = _FrontDoor(self)

    def process_request(self, request, client_address):
        if self.closing:
            _close(request)
            return
        self.front.add(request, client_address)

    def dispatch(self, sock, address, buffered, first_byte_at):
        """From the front door: run one authorised request on a thread of its own.
        False when none is free (or the bridge is stopping)."""
        with self._open_lock:
            if self.closing or len(self._open) >= protocol.MAX_CONNECTIONS:
                return False
            self._open.add(sock)
        try:
            threading.Thread(target=self._serve, args=(sock, address, buffered, first_byte_at),
                             name="capstan-bridge-request", daemon=True).start()
        except RuntimeError:  # no thread to be had: as busy as it gets
            with self._open_lock:
                self._open.discard(sock)
            return False
        return True

    def _serve(self, sock, address, buffered, first_byte_at):
        keep, leftover = False, b""
        try:
            sock.setblocking(True)
            reader = _RequestReader(sock, buffered, first_byte_at)
            handler = _Handler(sock, address, self, reader)
            keep = not handler.close_connection
            leftover = reader.leftover()
        except Exception:  # a broken connection: close it, the bridge serves on
            keep = False
        finally:
            with self._open_lock:
                self._open.discard(sock)
                keep = keep and not self.closing
        if keep:
            self.front.add(sock, address, leftover, kept=True)
        elif self.closing:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            _close(sock)
        else:
            self.front.add(sock, address, linger=True)

    def open_connections(self):
        """Requests in progress on their own threads."""
        with self._open_lock:
            return len(self._open)

    def waiting_connections(self):
        """Connections at the front door (no request in progress)."""
        return self.front.waiting()

    def close_connections(self):
        """Refuse new connections and cut every open one (kept-alive included)."""
        with self._open_lock:
            self.closing = True
            open_now = list(self._open)
        self.front.close()
        for request in open_now:
            try:
                request.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def server_close(self):
        self.closing = True
        front = getattr(self, "front", None)  # None: the bind itself failed
        if front is not None:
            front.close()
        super().server_close()


def bind(bridge, port=None, listen_sock=None):
    """Bind the first free loopback port (or exactly `port`); or serve `listen_sock`, a
    loopback socket already listening that the launching capstan handed over."""
    if listen_sock is not None:
        server = _Server(listen_sock.getsockname()[:2], _Handler, bind_and_activate=False)
        server.socket.close()
        server.socket = listen_sock
        server.server_address = listen_sock.getsockname()[:2]
        server.bridge = bridge
        return server
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
