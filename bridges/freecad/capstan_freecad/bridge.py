"""FreeCAD's bridge: the shared core (`core/bridge.py`: server thread, main-thread
queue, runtime file, request checks) plus how FreeCAD runs a command.

Headless only (`freecadcmd run_bridge.py`): the main thread stays in the core's loop
(`run_background`) and runs every queued command there; FreeCAD's document API is
never touched from the server thread.

Running a command (main thread):
- a mutating command runs in one undo transaction of the session's document, named
  after the command (`openTransaction`/`commitTransaction`), so `undo_last` can take it
  back whole; a command that fails aborts its transaction, so a failure leaves the
  document as it was;
- its delta comes from document snapshots before and after (`delta.py`);
- with CAPSTAN_BRIDGE_VERIFY_DELTA=1 (the tests), a read command that changed the
  document fails with `delta_mismatch`, and every answer is checked against its
  declared result schema and error codes;
- exceptions become structured errors (`freecad_error`); a traceback (which can leak
  paths) is included only with CAPSTAN_BRIDGE_DEBUG=1.
"""

import os

from . import delta, document
from .app import APP
from .core.bridge import BridgeCore
from .errors import CommandError


class Context:
    """What a command may know: the session's output folder and the bridge."""

    def __init__(self, output_dir, bridge):
        self.output_dir = output_dir
        self.bridge = bridge


class Bridge(BridgeCore):
    app = APP

    def read_app_version(self):
        import FreeCAD

        return ".".join(FreeCAD.Version()[:3])

    def prepare(self):
        """Main thread, before the server binds: the document, and a given output folder
        (created owner-only when missing)."""
        if self.output_dir:
            os.makedirs(self.output_dir, mode=0o700, exist_ok=True)
        document.current()

    def ping_extra(self):
        return {"undo": True}

    def execute(self, spec, params):
        """Main thread: run one command; (True, result) or (False, error object)."""
        doc = document.current()
        before = delta.snapshot(doc) if (spec.mutates or self.verify) else None
        transaction = spec.mutates and not spec.host_only
        if transaction:
            doc.openTransaction(spec.name)
        try:
            result = dict(spec.handler(Context(self.output_dir, self), params))
            doc = document.current()  # reset_document replaces it
            if transaction:
                doc.commitTransaction()
                transaction = False
            if spec.mutates:
                result["delta"] = delta.diff(before, delta.snapshot(doc))
            elif self.verify:
                changed = delta.diff(before, delta.snapshot(doc))
                if delta.changed_anything(changed):
                    raise CommandError("delta_mismatch", "read command %s changed the document: %s" % (spec.name, changed))
            self.check_result(spec, result)
            return True, result
        except Exception as e:  # a CommandError, or a FreeCAD exception: reported without leaking paths
            error = self.error_object(spec, e)
        if transaction:
            self._abort(doc)
        if spec.mutates and before is not None:
            try:
                partial = delta.diff(before, delta.snapshot(document.current()))
            except Exception:
                partial = None
            if partial is not None and delta.changed_anything(partial):
                error["delta"] = partial
        return False, error

    @staticmethod
    def _abort(doc):
        """Take back what a failed command changed."""
        try:
            doc.abortTransaction()
            doc.recompute()
        except Exception:
            pass
