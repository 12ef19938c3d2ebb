"""Runs one checked script under every layer and says how it ended.

Order (each step undone in reverse, whatever the script does):
memory cap -> captured stdout -> deadline watchdog -> runtime guard armed -> the script,
then its `result` read and its namespace dropped (its finalizers still guarded and
timed) -> watchdog stopped -> trace restored -> guard disarmed -> cap lifted.
Any exception the script raises, `SystemExit` and `KeyboardInterrupt` included, ends
the script, never the bridge.
"""

import contextlib
import gc
import importlib
import pkgutil
import sys
import threading

from . import deadline, guard, memory, policy

_prepared = False
_prepare_lock = threading.Lock()


class Ended:
    """How a script ended: `kind` is ok, error, refused, timeout or memory."""

    def __init__(self, kind, message=None, value=None):
        self.kind = kind
        self.message = message
        self.value = value


def _preload():
    """Import what scripts may import, before any runs: the guard then sees no
    standard-library import machinery during a script except for modules first used
    there, which it judges one by one."""
    names = set(policy.ALLOWED_MODULES) | set(policy.LAZY_DEPENDENCIES)
    for name in sorted(names):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    for package in ("bpy_extras",):
        module = sys.modules.get(package)
        for info in pkgutil.iter_modules(getattr(module, "__path__", []) or []):
            try:
                importlib.import_module("%s.%s" % (package, info.name))
            except Exception:  # a submodule that needs a UI; scripts cannot use it either
                pass


def prepare():
    """Once per process: preload, then install the guard."""
    global _prepared
    with _prepare_lock:
        if _prepared:
            return
        _preload()
        own = [guard, deadline, memory, sys.modules[__name__]]
        codes = []
        for module in own:
            for value in list(vars(module).values()):
                members = list(vars(value).values()) if isinstance(value, type) else [value]
                for member in members:
                    function = getattr(member, "__func__", member)
                    if hasattr(function, "__code__") and getattr(function, "__module__", None) == module.__name__:
                        codes.extend(guard._code_objects(function))
        deadline.trust(codes)
        guard.install(guard.read_only_roots(), own)
        _prepared = True


def run(code, namespace, output_dir, limits, stdout, collect):
    """Run `code` (compiled from the checked script) in `namespace`; `collect(namespace)`
    reads the script's result while still under its guard and deadline."""
    prepare()
    previous_trace = sys.gettrace()
    lift_cap = memory.cap(limits.memory_mib)
    watch = deadline.Watch(limits.timeout_s, run.__code__)
    ended = None
    try:
        with contextlib.redirect_stdout(stdout):
            watch.start()
            token = guard.arm(code, output_dir)
            try:
                try:
                    exec(code, namespace)
                    ended = Ended("ok", value=collect(namespace))
                except BaseException as e:  # the script's, whatever it is
                    ended = _classify(e, watch, limits)
                # Its objects go while still guarded and timed (their finalizers are its code).
                try:
                    namespace.clear()
                    gc.collect()
                except BaseException as e:
                    if ended.kind == "ok":
                        ended = _classify(e, watch, limits)
                # Stop the watchdog; an interruption it sent just before lands here.
                while True:
                    try:
                        watch.finish()
                        break
                    except deadline.ScriptDeadline as e:
                        ended = _classify(e, watch, limits)
                sys.settrace(previous_trace)
            finally:
                guard.disarm(token)
    finally:
        lift_cap()
    return ended


def _classify(error, watch, limits):
    if watch.expired or isinstance(error, deadline.ScriptDeadline):
        return Ended("timeout", watch.message())
    if isinstance(error, guard.Refused):
        return Ended("refused", str(error))
    if isinstance(error, MemoryError) and memory.supported():
        return Ended("memory", "the script ran out of its memory cap of %d MiB and was stopped (limit script_memory_mib)" % limits.memory_mib)
    if isinstance(error, SyntaxError):
        return Ended("error", "SyntaxError: %s (line %s)" % (error.msg, error.lineno))
    return Ended("error", "%s: %s" % (type(error).__name__, error))
