"""The bridge: server thread + main-thread execution + runtime file, in GUI or
background mode.

Request handling (server thread): parse, check shape, look the command up among the
declared commands (`command.discover`), validate params against its schema, then hand
the work to the main thread and wait. Execution (main thread): run the command with a
context whose delta tracker fingerprints what the command touches (`delta/`); a
mutating command's answer carries the delta of exactly that. Exceptions become
structured errors; a traceback (which can leak paths) is included only with
CAPSTAN_BRIDGE_DEBUG=1.

Switches read from Blender's environment:
- CAPSTAN_BRIDGE_VERIFY_DELTA=1: also snapshot the whole scene around each mutating
  command and fail with `delta_mismatch` when the tracked delta differs; check answers
  against their declared result schemas and error codes (capstan's tests run with it);
- CAPSTAN_BRIDGE_UNDO=1: push an undo step per capability call also in background mode
  (GUI Blender always does);
- CAPSTAN_BRIDGE_WITHOUT_COMMANDS=a,b: serve without those commands, standing in for
  an older add-on in tests of host/add-on skew.
"""

import atexit
import json
import os
import secrets
import sys
import threading
import traceback

from . import command, executor, http_server, paths, protocol, runtime_file, schema
from .containment import runner
from . import settle
from .errors import PROTOCOL_CODES, CommandError


def _error(code, message, request_id=None, status=200):
    return status, {"id": request_id, "ok": False, "error": {"code": code, "message": message}}


class Context:
    """What a command may know: the session's output folder, the tracker it reports
    what it touches to (`delta`), and the bridge session's own state (`session`)."""

    def __init__(self, output_dir, delta, session):
        self.output_dir = output_dir
        self.delta = delta
        self.session = session


class Session:
    """State the bridge keeps for its lifetime (never in the .blend file)."""

    def __init__(self, undo):
        self.undo = undo
        self.snapshots = {}


def _env_flag(name):
    return os.environ.get(name) == "1"


class Bridge:
    def __init__(self, port=None, runtime_path=None, output_dir=None, debug=False, handed=None, publish=True):
        self.port = port
        self.publish = publish
        self.runtime_path = (runtime_path or runtime_file.default_path()) if publish else None
        self.output_dir = output_dir
        self.debug = debug
        # `handed`: what the capstan that launched this Blender passed through inherited
        # descriptors (handover.py): the listening socket and the secrets.
        self.handed = handed
        self.token = handed.token if handed is not None else secrets.token_urlsafe(32)
        without = [c for c in os.environ.get("CAPSTAN_BRIDGE_WITHOUT_COMMANDS", "").split(",") if c]
        self.commands = command.discover(without=without)
        self.catalog_sha256 = command.catalog_sha256(self.commands)
        self.validator = schema.Validator(schema.DEFINITIONS)
        self.verify = _env_flag("CAPSTAN_BRIDGE_VERIFY_DELTA")
        self.session = None
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
        self.session = Session(undo=not bpy.app.background or _env_flag("CAPSTAN_BRIDGE_UNDO"))
        self.output_dir = self.output_dir or paths.session_output_dir()
        paths.configure_read_roots()
        if self.handed is not None and self.handed.listener is not None:
            self.server = http_server.bind(self, listen_sock=self.handed.listener)
        else:
            self.server = http_server.bind(self, self.port)
        self.port = self.server.server_address[1]
        thread = threading.Thread(target=self.server.serve_forever, name="capstan-bridge-http", daemon=True)
        thread.start()
        if self.publish:
            runtime_file.write(self.runtime_path, self.port, self.token, self.app_version)
        atexit.register(self.stop)
        where = "runtime file %s" % self.runtime_path if self.publish else "runtime record kept by the capstan that launched it"
        sys.stderr.write("capstan bridge listening on http://127.0.0.1:%d (%s)\n" % (self.port, where))
        if runner.unguarded():
            sys.stderr.write("capstan bridge: WARNING: CAPSTAN_TEST_UNGUARDED=1: execute_python runs scripts WITHOUT the runtime guard (a test switch)\n")
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
            if self.publish:
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
            "app": protocol.APP,
            "app_version": self.app_version,
            "pid": os.getpid(),
            "output_dir": self.output_dir,
            "catalog_sha256": self.catalog_sha256,
            "commands": sorted(self.commands),
            "undo": bool(self.session and self.session.undo),
            "verify": self.verify,
            # The add-on's own layer of execute_python (the OS layers are capstan's record).
            "layers": {
                "guard": not runner.unguarded(),
                "exec_forbidden": bool(self.handed is not None and self.handed.exec_forbidden),
            },
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
        name, params = request.get("command"), request.get("params", {})
        spec = self.commands.get(name) if isinstance(name, str) else None
        if spec is None:
            return _error("unknown_command", "no command %r in capstan-bridge/%d" % (name, protocol.PROTOCOL), request_id)
        if not isinstance(params, dict):
            return _error("invalid_params", "params must be a JSON object", request_id)
        errors = self.validator.errors(spec.params, params)
        if errors:
            return _error("invalid_params", "; ".join(errors), request_id)
        params = self.validator.normalize(spec.params, params)
        try:
            ok, payload = self.queue.submit(lambda: self.execute(spec, params), protocol.JOB_TIMEOUT_SECONDS)
        except executor.Busy as e:
            return _error("busy", str(e), request_id, status=503)
        if ok:
            return 200, {"id": request_id, "ok": True, "result": payload}
        return 200, {"id": request_id, "ok": False, "error": payload}

    def execute(self, spec, params):
        """Main thread: run one command; (True, result) or (False, error object)."""
        from .delta import ReadOnly, Tracker, full

        tracker = Tracker(count_nets=self.verify) if spec.mutates else ReadOnly()
        whole = spec.mutates and (self.verify or spec.full_delta)
        before = None
        try:
            settle.before_command()
            before = full.snapshot() if whole or (self.verify and not spec.mutates) else None
            result = dict(spec.handler(Context(self.output_dir, tracker, self.session), params))
            if spec.mutates:
                settle.after_change(tracker.animation_changed())
                result["delta"] = self._delta(spec, tracker, before)
            elif self.verify:
                changed = full.diff(before, full.snapshot())
                if any(changed[k] for k in ("added", "removed", "changed", "settings")) or changed.get("datablocks"):
                    raise CommandError("delta_mismatch", "read command %s changed the scene: %s" % (spec.name, changed))
            if self.verify:
                problems = self.validator.errors(spec.result_schema(), result)
                if problems:
                    raise CommandError("result_mismatch", "%s answered outside its result schema: %s" % (spec.name, "; ".join(problems[:8])))
            return True, result
        except CommandError as e:
            if self.verify and e.code not in spec.errors and e.code not in PROTOCOL_CODES:
                error = {"code": "undeclared_error", "message": "%s raised %s, which it does not declare: %s" % (spec.name, e.code, e.message)}
            else:
                error = {"code": e.code, "message": e.message}
        except Exception as e:  # a Blender exception: report it without leaking paths
            error = {"code": "blender_error", "message": "%s: %s" % (type(e).__name__, e)}
            if self.debug:
                error["traceback"] = traceback.format_exc()
        if spec.mutates and error["code"] not in ("delta_mismatch",):
            partial = self._partial_delta(spec, tracker, before)
            if partial is not None:
                error["delta"] = partial
        return False, error

    def _partial_delta(self, spec, tracker, before):
        """What a failed mutating command changed before it failed (None if nothing),
        so the caller still learns it."""
        from .delta import full

        try:
            delta = full.diff(before, full.snapshot()) if before is not None else tracker.finish()
        except Exception:  # the scene is in a state fingerprints cannot read
            return None
        changed = any(delta[k] for k in ("added", "removed", "changed", "settings")) or delta.get("datablocks")
        return delta if changed else None

    def _delta(self, spec, tracker, before):
        from .delta import full

        if spec.full_delta:
            return full.diff(before, full.snapshot())
        delta = tracker.finish()
        incomplete = tracker.unreported_counts(delta)
        if incomplete:
            delta["incomplete"] = incomplete
            sys.stderr.write("capstan bridge: %s changed %s without reporting it (a bridge bug)\n" % (spec.name, ", ".join(incomplete)))
        if self.verify:
            lines = full.mismatch(delta, full.diff(before, full.snapshot()))
            if lines:
                raise CommandError("delta_mismatch", "%s reported another delta than it made: %s" % (spec.name, "; ".join(lines)))
        return delta
