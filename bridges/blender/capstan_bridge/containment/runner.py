"""Runs one checked script under every layer and says how it ended.

Order (each step undone in reverse, whatever the script does):
memory cap -> captured stdout -> deadline watchdog -> runtime guard armed -> the script
-> the plain-data copy of its `result` -> everything it made dropped -> watchdog stopped
-> trace restored -> guard disarmed -> gc's callbacks and automatic collection restored
-> cap lifted. (What the script changed in the interpreter's hooks and builtins is put
back inside the guarded window, before everything it made is dropped.)
Any exception the script raises, `SystemExit` and `KeyboardInterrupt` included, ends
the script, never the bridge.

Security reasoning (issue 26, finding 1): an object the script made must not outlive
the guard, or its finaliser (`__del__`, a weak-reference callback) runs later with no
guard at all: the issue's exploit returned a `dict` subclass whose `__del__` ran at the
next call. So, while the guard is still armed and the deadline still running:
- the answer is a plain-data copy of `result` (plain.py), never the script's object;
- the script's exception (which holds its frames) is let go, its namespace cleared
  and a full garbage collection run, until both are seen done after the namespace was
  last emptied (`_drop`: a deadline interruption that lands in the clean-up rather
  than in the script must not skip the collection, or a cycle of the script's objects
  would be freed later, unguarded);
- `weakref.finalize` entries the script registered on objects that live on (a module,
  a Blender struct) are removed from the registry, unrun: they would run at exit;
- callbacks the script added to `gc.callbacks` are removed: they would run at every
  later collection; and the interpreter's streams and hooks (`sys.stdout`,
  `sys.unraisablehook`, `threading.excepthook`, ...) and the `builtins` module are put
  back as they were: Blender's own code would call what the script left there.
Past the deadline the watchdog keeps interrupting, and the deadline's monitoring (or
trace function) stops any of the script's code at its first line (deadline.py), so a
finaliser that never ends cannot hold the clean-up.

What this cannot reach: an object the script stored outside its namespace (a module
attribute, `bpy.types`, a Blender property) lives on, and so does code it left to run
later (`atexit`, a handler, a timer, a patched function, the add-on's own modules). The
checker refuses the ways to get there; the kernel's wall (DESIGN §3a) holds whatever
runs.

`CAPSTAN_TEST_UNGUARDED=1` in Blender's environment at start (read once, when this
module is imported: a script cannot switch it on for the next one by changing the
environment): scripts run without the runtime guard and with Python's full builtins
(commands/python_exec.py), still under the deadline, the memory cap, the plain-data
copy and the attestation, so tests can prove the OS layer alone.
"""

import builtins
import contextlib
import gc
import importlib
import os
import pkgutil
import sys
import threading

from . import deadline, guard, memory, plain, policy

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


UNGUARDED_ENV = "CAPSTAN_TEST_UNGUARDED"
# Read once, at start (see the module doc).
_UNGUARDED = os.environ.get(UNGUARDED_ENV) == "1"


def unguarded():
    """The test switch that runs scripts without the runtime guard (deadline, memory cap
    and attestation stay), so tests prove the kernel's wall alone. Said loudly at start
    (bridge.py) and in `/ping` (`layers.guard`). Fixed for the life of the process."""
    return _UNGUARDED


def run(code, namespace, output_dir, limits, stdout, collect):
    """Run `code` (compiled from the checked script) in `namespace`; `collect(namespace)`
    picks the script's result, of which the plain-data copy (plain.py) is made while
    still under its guard and deadline."""
    prepare()
    previous_trace = sys.gettrace()
    lift_cap = memory.cap(limits.memory_mib)
    watch = deadline.Watch(limits.timeout_s, run.__code__)
    finalizers_before = _finalizers()
    gc_was_enabled = gc.isenabled()
    callbacks_before = list(gc.callbacks)
    collections = {}  # what gc reports of its collections during the clean-up
    try:
        with contextlib.redirect_stdout(stdout):
            hooks_before = _interpreter_hooks()
            builtins_before = dict(vars(builtins))
            watch.start()
            token = None if unguarded() else guard.arm(code, output_dir)
            try:
                value = error = None
                try:
                    exec(code, namespace)
                    value = plain.copy(collect(namespace))
                except BaseException as e:  # the script's, whatever it is
                    error = e
                # Everything from here is done again if an interruption lands in it
                # (each step is idempotent), until the watchdog is stopped.
                ended = None
                while True:
                    try:
                        if ended is None:
                            ended = _ending(error, value, watch, limits)
                        error = value = None  # the exception holds the script's frames
                        _restore_interpreter(hooks_before, builtins_before)
                        _drop(namespace, finalizers_before, callbacks_before, collections)
                        if watch.expired and ended.kind == "ok":
                            ended = Ended("timeout", watch.message())
                        watch.finish()
                        deadline.checkpoint()  # an interruption sent just before lands here
                        break
                    except BaseException:
                        pass
                sys.settrace(previous_trace)
            finally:
                if token is not None:
                    guard.disarm(token)
    finally:
        gc.callbacks[:] = callbacks_before
        if gc_was_enabled:
            gc.enable()
        lift_cap()
    return ended


# What the interpreter calls on its own later (streams and hooks): a script's object
# put there would run, unguarded, whenever Blender prints or an error goes unraised.
_HOOKS = (
    ("sys", ("stdin", "stdout", "stderr", "displayhook", "excepthook", "unraisablehook", "breakpointhook",
             "__stdin__", "__stdout__", "__stderr__", "__displayhook__", "__excepthook__", "__unraisablehook__",
             "__breakpointhook__")),
    ("threading", ("excepthook",)),
)
_MISSING = object()


def _interpreter_hooks():
    saved = []
    for module_name, names in _HOOKS:
        module = sys.modules.get(module_name)
        if module is not None:
            for name in names:
                saved.append((module, name, getattr(module, name, _MISSING)))
    return saved


def _restore_interpreter(hooks_before, builtins_before):
    """Put back the interpreter's streams and hooks and the builtins module as they were
    before the script (inside the guarded window: what the script put there is dropped
    here, and its finaliser runs guarded). Only C-level operations on exact dicts."""
    for module, name, value in hooks_before:
        namespace = vars(module)
        if value is _MISSING:
            namespace.pop(name, None)
        elif namespace.get(name, _MISSING) is not value:
            namespace[name] = value
    current = vars(builtins)
    for name in [n for n in current if n not in builtins_before]:
        current.pop(name, None)
    for name, value in builtins_before.items():
        if current.get(name, _MISSING) is not value:
            current[name] = value


def _finalizers_registry():
    """`weakref.finalize`'s registry (what runs when an object dies or at exit)."""
    weakref = sys.modules.get("weakref")
    registry = getattr(getattr(weakref, "finalize", None), "_registry", None)
    return registry if type(registry) is dict else {}


def _finalizers():
    """The `weakref.finalize` entries alive now."""
    return set(_finalizers_registry())


def _drop(namespace, finalizers_before, callbacks_before, collections):
    """Drop everything the script made (see the module doc). Returns once the namespace
    is empty and a full collection began after it was last emptied and ended.

    Past the deadline the watchdog keeps interrupting, and an interruption may land in
    these lines rather than in a finaliser: each step is done again until it is seen
    done, and that is read from what the interpreter itself records, never from a line
    of ours that an interruption could skip. gc reports each collection it starts and
    ends into `collections` (a `dict.__setitem__`, so no Python code runs for it), and
    automatic collections are off meanwhile: one another thread began before the
    namespace was cleared would not see its objects as garbage, yet would count."""
    while True:
        try:
            gc.disable()
            # What the script added to gc's callbacks would run at every later collection.
            gc.callbacks[:] = callbacks_before + [collections.__setitem__]
            registry = _finalizers_registry()
            for entry in _finalizers() - finalizers_before:
                registry.pop(entry, None)  # not `detach()`: no Python code runs here
            if namespace:
                collections.clear()
                namespace.clear()
                continue
            started, stopped = collections.get("start"), collections.get("stop")
            if type(started) is dict and started.get("generation") == 2 and type(stopped) is dict and stopped.get("generation") == 2:
                return
            collections.clear()
            gc.collect()
        except BaseException:  # an interruption, landed here: look again
            pass


def _ending(error, value, watch, limits):
    """How the script ended: `value` if it raised nothing, else from what it raised,
    whatever the script's own code does while that is read (an exception's `__str__`
    that raises, or runs past the deadline and is interrupted). An interruption that
    lands in these lines only makes them run again."""
    while True:
        try:
            if error is None and not watch.expired:
                return Ended("ok", value=value)
            if watch.expired:
                return Ended("timeout", watch.message())
            try:
                return _classify(error, watch, limits)
            except BaseException:
                if watch.expired:
                    return Ended("timeout", watch.message())
                return Ended("error", "%s (its message could not be read)" % _type_name(error))
        except BaseException:
            continue


def _type_name(obj):
    """The name of `obj`'s class, read without running any of the script's code."""
    return str.__str__(type.__dict__["__name__"].__get__(type(obj)))


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
