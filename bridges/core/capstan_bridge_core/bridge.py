"""The part of a bridge every app shares: server thread, main-thread queue, runtime
file, /ping, and the checking of a request before it reaches the app.

Request handling (server thread): parse, check shape, look the command up among the
declared commands (`command.discover`), validate params against its schema, then hand
the work to the main thread and wait (`executor.py`). Execution (`execute`, main
thread) is the app's: each app subclasses `BridgeCore` and runs the command with what
its delta needs. Nothing here imports the app.

Security reasoning, and where it lives:
- the HTTP side (loopback only, bearer token, size caps, connection limits):
  `http_server.py`;
- the runtime file (atomic, 0600, ownership checks): `runtime_file.py`;
- what a launching capstan hands over (listening socket, token): `handover.py`;
- file paths (output folder, read roots): `paths.py`;
- nothing sent is ever run as code: a request names a declared command, and its params
  are validated against the declared schema before the main thread sees them.

Switches read from the environment:
- CAPSTAN_BRIDGE_WITHOUT_COMMANDS=a,b: serve without those commands, standing in for
  an older bridge in tests of host/bridge skew;
- CAPSTAN_BRIDGE_VERIFY_DELTA=1: the app's verification mode (`self.verify`).
"""

import atexit
import json
import os
import secrets
import sys
import threading
import traceback

from . import command, executor, http_server, paths, protocol, runtime_file, schema
from .errors import PROTOCOL_CODES, CommandError


def error_answer(code, message, request_id=None, status=200):
    return status, {"id": request_id, "ok": False, "error": {"code": code, "message": message}}


def env_flag(name):
    return os.environ.get(name) == "1"


class BridgeCore:
    """Subclasses set `app` (a `core.app.App`) and implement `app_version()` and
    `execute(spec, params) -> (ok, result or error object)`; they may extend
    `prepare()`, `runtime_extra()`, `ping_extra()`, `announce()` and `on_stop()`."""

    app = None

    def __init__(self, port=None, runtime_path=None, output_dir=None, debug=False, handed=None, publish=True):
        self.port = port
        self.publish = publish
        self.runtime_path = (runtime_path or runtime_file.default_path(self.app.name)) if publish else None
        self.output_dir = output_dir
        self.debug = debug
        # `handed`: what the capstan that launched this app passed through inherited
        # descriptors (handover.py): the listening socket and the secrets.
        self.handed = handed
        self.token = handed.token if handed is not None else secrets.token_urlsafe(32)
        without = [c for c in os.environ.get("CAPSTAN_BRIDGE_WITHOUT_COMMANDS", "").split(",") if c]
        self.commands = command.discover(self.app, without=without)
        self.catalog_sha256 = command.catalog_sha256(self.app, self.commands)
        self.validator = schema.Validator(schema.DEFINITIONS)
        self.verify = env_flag("CAPSTAN_BRIDGE_VERIFY_DELTA")
        self.queue = executor.MainThreadQueue()
        self.server = None
        self.app_version = None
        self._stopping = threading.Event()

    @classmethod
    def from_environment(cls):
        port = os.environ.get("CAPSTAN_BRIDGE_PORT")
        return cls(
            port=int(port) if port else None,
            runtime_path=os.environ.get("CAPSTAN_BRIDGE_RUNTIME_FILE") or None,
            debug=os.environ.get("CAPSTAN_BRIDGE_DEBUG") == "1",
        )

    # -- what the app provides ------------------------------------------------------

    def read_app_version(self):
        raise NotImplementedError

    def prepare(self):
        """Main thread, before the server binds: the app's session state."""

    def runtime_extra(self):
        """App-specific fields of the runtime file."""
        return None

    def ping_extra(self):
        return {}

    def announce(self):
        """Warnings for stderr after the start banner."""

    def on_stop(self):
        pass

    def execute(self, spec, params):
        raise NotImplementedError

    # -- what every app's `execute` shares (main thread) -------------------------------

    def execute_concurrent(self, spec, params):
        """Request thread, beside the main thread's work: a `concurrent` command, which
        reads only the bridge's own thread-safe state (never the app's data), so it gets
        no context and no delta."""
        try:
            result = dict(spec.handler(None, params))
            self.check_result(spec, result)
            return True, result
        except Exception as e:  # reported like any command's failure
            return False, self.error_object(spec, e)

    def check_result(self, spec, result):
        """Verification mode: an answer outside the command's declared result schema
        fails with `result_mismatch`."""
        if self.verify:
            problems = self.validator.errors(spec.result_schema(), result)
            if problems:
                raise CommandError("result_mismatch", "%s answered outside its result schema: %s" % (spec.name, "; ".join(problems[:8])))

    def error_object(self, spec, e):
        """The error object of a command that raised `e` (called while handling it). A
        `CommandError` keeps its code, unless verification finds the command does not
        declare it (`undeclared_error`); any other exception is the app's, reported
        without leaking paths: a traceback (which can) only with CAPSTAN_BRIDGE_DEBUG=1."""
        if isinstance(e, CommandError):
            if self.verify and e.code not in spec.errors and e.code not in PROTOCOL_CODES:
                return {"code": "undeclared_error", "message": "%s raised %s, which it does not declare: %s" % (spec.name, e.code, e.message)}
            return {"code": e.code, "message": e.message}
        error = {"code": self.app.app_error, "message": "%s: %s" % (type(e).__name__, e)}
        if self.debug:
            error["traceback"] = traceback.format_exc()
        return error

    # -- lifecycle -------------------------------------------------------------------

    def start_server(self):
        """Bind, start the server thread, publish the runtime file. Main thread."""
        self.app_version = self.read_app_version()
        self.prepare()
        self.output_dir = self.output_dir or paths.session_output_dir(self.app.name)
        paths.configure_read_roots()
        if self.handed is not None and self.handed.listener is not None:
            self.server = http_server.bind(self, listen_sock=self.handed.listener)
        else:
            self.server = http_server.bind(self, self.port)
        self.port = self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever, name="capstan-bridge-http", daemon=True)
        thread.start()
        if self.publish:
            runtime_file.write(self.runtime_path, self.port, self.token, self.app_version, self.runtime_extra())
        atexit.register(self.stop)
        where = "runtime file %s" % self.runtime_path if self.publish else "runtime record kept by the capstan that launched it"
        sys.stderr.write("capstan bridge listening on http://127.0.0.1:%d (%s)\n" % (self.port, where))
        self.announce()
        sys.stderr.flush()

    def run_background(self):
        """Serve until stopped, keeping the main thread in this loop (headless: no app
        event loop runs the queue). SIGINT/SIGTERM stop it cleanly."""
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
            if self.publish:
                runtime_file.remove(self.runtime_path, self.token)
        self.on_stop()

    # -- protocol --------------------------------------------------------------------

    def ping(self):
        doc = {
            "bridge": "capstan",
            "protocol": protocol.PROTOCOL,
            "app": self.app.name,
            "app_version": self.app_version,
            "pid": os.getpid(),
            "output_dir": self.output_dir,
            "catalog_sha256": self.catalog_sha256,
            "commands": sorted(self.commands),
            "verify": self.verify,
        }
        doc.update(self.ping_extra())
        return doc

    def handle_request(self, body):
        """Server thread: returns (HTTP status, response document)."""
        try:
            # NaN and Infinity are not JSON (Python's parser takes them by default): a
            # non-finite number never reaches a command.
            request = json.loads(body.decode("utf-8"), parse_constant=_not_json)
        except (UnicodeDecodeError, ValueError) as e:
            return error_answer("bad_request", "the body is not JSON: %s" % e, status=400)
        except RecursionError:
            return error_answer("bad_request", "the body is nested too deeply", status=400)
        if not isinstance(request, dict):
            return error_answer("bad_request", "the body must be a JSON object", status=400)
        request_id = request.get("id")
        if not isinstance(request_id, str) or not 0 < len(request_id) <= protocol.MAX_ID_LENGTH:
            return error_answer("bad_request", "id must be a non-empty string of at most %d characters" % protocol.MAX_ID_LENGTH, status=400)
        name, params = request.get("command"), request.get("params", {})
        spec = self.commands.get(name) if isinstance(name, str) else None
        if spec is None:
            return error_answer("unknown_command", "no command %r in capstan-bridge/%d" % (name, protocol.PROTOCOL), request_id)
        if not isinstance(params, dict):
            return error_answer("invalid_params", "params must be a JSON object", request_id)
        errors = self.validator.errors(spec.params, params)
        if errors:
            return error_answer("invalid_params", "; ".join(errors), request_id)
        params = self.validator.normalize(spec.params, params)
        if spec.concurrent:
            ok, payload = self.execute_concurrent(spec, params)
        else:
            try:
                ok, payload = self.queue.submit(lambda: self.execute(spec, params), protocol.JOB_TIMEOUT_SECONDS)
            except executor.Busy as e:
                return error_answer("busy", str(e), request_id, status=503)
        if ok and not _finite(payload):
            # The change is made, but an answer holding NaN or Infinity is not JSON and
            # would break the host's reading of it: say what happened instead.
            return 200, {"id": request_id, "ok": False, "error": {"code": "non_finite_result", "message": "%s ran, but its answer holds a number that is not finite (NaN or infinity); inspect what it touched" % spec.name}}
        if ok:
            return 200, {"id": request_id, "ok": True, "result": payload}
        return 200, {"id": request_id, "ok": False, "error": payload}


def _not_json(constant):
    raise ValueError("%s is not a JSON number" % constant)


def _finite(doc):
    """Whether every number in the answer is finite (it then serialises as JSON)."""
    try:
        json.dumps(doc, allow_nan=False)
    except ValueError:
        return False
    return True
