"""Blender's bridge: the shared core (`core/bridge.py`: server thread, main-thread
queue, runtime file, request checks) plus what is Blender's: GUI or background mode,
and running a command with a context whose delta tracker fingerprints what the command
touches (`delta/`); a mutating command's answer carries the delta of exactly that.
Exceptions become structured errors; a traceback (which can leak paths) is included
only with CAPSTAN_BRIDGE_DEBUG=1.

Switches read from Blender's environment (besides the core's):
- CAPSTAN_BRIDGE_VERIFY_DELTA=1: also snapshot the whole scene around each mutating
  command and fail with `delta_mismatch` when the tracked delta differs; check answers
  against their declared result schemas and error codes (capstan's tests run with it);
- CAPSTAN_BRIDGE_UNDO=1: push an undo step per capability call also in background mode
  (GUI Blender always does);
- CAPSTAN_BRIDGE_WITHOUT_COMMANDS=a,b: serve without those commands, standing in for
  an older add-on in tests of host/add-on skew.
"""

import sys

from . import settle
from .app import APP
from .containment import attestation, runner
from .core.bridge import BridgeCore, env_flag
from .errors import CommandError


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


class Bridge(BridgeCore):
    app = APP

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = None
        self._timer = None

    # -- lifecycle (the core's, with Blender's parts) ----------------------------------

    def read_app_version(self):
        import bpy

        return bpy.app.version_string

    def prepare(self):
        import bpy

        self.session = Session(undo=not bpy.app.background or env_flag("CAPSTAN_BRIDGE_UNDO"))

    def runtime_extra(self):
        return {"exec_key": attestation.key()}  # execute_python's attestation key (containment/attestation.py)

    def announce(self):
        if runner.unguarded():
            sys.stderr.write("capstan bridge: WARNING: CAPSTAN_TEST_UNGUARDED=1: execute_python runs scripts WITHOUT the runtime guard (a test switch)\n")

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

    def on_stop(self):
        if self._timer is not None:
            import bpy

            if bpy.app.timers.is_registered(self._timer):
                bpy.app.timers.unregister(self._timer)
            self._timer = None

    def ping_extra(self):
        return {
            "undo": bool(self.session and self.session.undo),
            # The add-on's own layer of execute_python (the OS layers are capstan's record).
            "layers": {
                "guard": not runner.unguarded(),
                "exec_forbidden": bool(self.handed is not None and self.handed.exec_forbidden),
            },
        }

    # -- running a command (main thread) -------------------------------------------------

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
            self.check_result(spec, result)
            return True, result
        except Exception as e:  # a CommandError, or a Blender exception: reported without leaking paths
            error = self.error_object(spec, e)
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
