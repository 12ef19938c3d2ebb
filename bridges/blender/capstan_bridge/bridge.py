"""The bridge: server thread + main-thread execution + runtime file, in GUI or
background mode.

Request handling (server thread): parse, check shape, look the command up in the
catalog, validate params against its schema, then hand the work to the main thread
and wait. Execution (main thread): run the command; for a mutating command, snapshot
the scene before and after and return the delta. Exceptions become structured errors;
a traceback (which can leak paths) is included only with CAPSTAN_BRIDGE_DEBUG=1.
"""

import atexit
import json
import os
import secrets
import sys
import threading
import traceback

from . import executor, http_server, paths, protocol, runtime_file
from .catalog import Catalog


def _error(code, message, request_id=None, status=200):
    return status, {"id": request_id, "ok": False, "error": {"code": code, "message": message}}


class Context:
    """What commands may know about the session."""

    def __init__(self, output_dir):
        self.output_dir = output_dir


class Bridge:
    def __init__(self, port=None, runtime_path=None, output_dir=None, debug=False):
        self.port = port
        self.runtime_path = runtime_path or runtime_file.default_path()
        self.output_dir = output_dir
        self.debug = debug
        self.token = secrets.token_urlsafe(32)
        self.catalog = Catalog.load()
        self.queue = executor.MainThreadQueue()
        self.server = None
        self.app_version = None
        self._stopping = threading.Event()
        self._timer = None

    @classmethod
    def from_environment(cls):
        port = os.environ.get("CAPSTAN_BRIDGE_PORT")
        return cls(
            port=int(port) if port else None,
            runtime_path=os.environ.get("CAPSTAN_BRIDGE_RUNTIME_FILE") or None,
            debug=os.environ.get("CAPSTAN_BRIDGE_DEBUG") == "1",
        )

    # -- lifecycle -------------------------------------------------------------

    def start_server(self):
        """Bind, start the server thread, publish the runtime file. Main thread."""
        import bpy

        self.app_version = bpy.app.version_string
        self.output_dir = self.output_dir or paths.session_output_dir()
        self.server = http_server.bind(self, self.port)
        self.port = self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever, name="capstan-bridge-http", daemon=True)
        thread.start()
        runtime_file.write(self.runtime_path, self.port, self.token, self.app_version)
        atexit.register(self.stop)
        sys.stderr.write("capstan bridge listening on http://127.0.0.1:%d (runtime file %s)\n" % (self.port, self.runtime_path))
        sys.stderr.flush()

    def start_gui(self):
        import bpy

        self.start_server()

        def drain():
            if self._stopping.is_set():
                return None
            self.queue.drain()
            return 0.02

        self._timer = drain
        bpy.app.timers.register(drain, persistent=True)

    def run_background(self):
        """Serve until stopped, keeping the main thread in this loop (timers never fire
        in background mode). SIGINT/SIGTERM stop it cleanly."""
        import signal

        self.start_server()

        def on_signal(signum, frame):
            self._stopping.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                signal.signal(sig, on_signal)
            except (ValueError, OSError):
                pass
        try:
            while not self._stopping.is_set():
                self.queue.drain(wait=0.1)
        finally:
            self.stop()

    def stop(self):
        self._stopping.set()
        if self.server is not None:
            server, self.server = self.server, None
            server.close_connections()
            server.shutdown()
            server.server_close()
            runtime_file.remove(self.runtime_path, self.token)
        if self._timer is not None:
            import bpy

            if bpy.app.timers.is_registered(self._timer):
                bpy.app.timers.unregister(self._timer)
            self._timer = None

    # -- protocol --------------------------------------------------------------

    def ping(self):
        return {
            "bridge": "capstan",
            "protocol": protocol.PROTOCOL,
            "app": "blender",
            "app_version": self.app_version,
            "pid": os.getpid(),
            "output_dir": self.output_dir,
        }

    def handle_request(self, body):
        """Server thread: returns (HTTP status, response document)."""
        try:
            request = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            return _error("bad_request", "the body is not JSON: %s" % e, status=400)
        if not isinstance(request, dict):
            return _error("bad_request", "the body must be a JSON object", status=400)
        request_id = request.get("id")
        if not isinstance(request_id, str) or not 0 < len(request_id) <= protocol.MAX_ID_LENGTH:
            return _error("bad_request", "id must be a non-empty string of at most %d characters" % protocol.MAX_ID_LENGTH, status=400)
        command, params = request.get("command"), request.get("params", {})
        if not isinstance(command, str) or command not in self.catalog.commands:
            return _error("unknown_command", "no command %r in capstan-bridge/%d" % (command, protocol.PROTOCOL), request_id)
        if not isinstance(params, dict):
            return _error("invalid_params", "params must be a JSON object", request_id)
        errors = self.catalog.validate(command, params)
        if errors:
            return _error("invalid_params", "; ".join(errors), request_id)
        try:
            ok, payload = self.queue.submit(lambda: self.execute(command, params), protocol.JOB_TIMEOUT_SECONDS)
        except executor.Busy as e:
            return _error("busy", str(e), request_id, status=503)
        if ok:
            return 200, {"id": request_id, "ok": True, "result": payload}
        return 200, {"id": request_id, "ok": False, "error": payload}

    def execute(self, command, params):
        """Main thread: run one command; (True, result) or (False, error object)."""
        from . import delta
        from .commands import REGISTRY, CommandError

        mutating = self.catalog.effect(command) != "read"
        try:
            before = delta.snapshot() if mutating else None
            result = REGISTRY[command](Context(self.output_dir), params)
            if mutating:
                result = dict(result)
                result["delta"] = delta.diff(before, delta.snapshot())
            return True, result
        except CommandError as e:
            return False, {"code": e.code, "message": e.message}
        except Exception as e:  # a Blender exception: report it without leaking paths
            error = {"code": "blender_error", "message": "%s: %s" % (type(e).__name__, e)}
            if self.debug:
                error["traceback"] = traceback.format_exc()
            return False, error
