"""The runtime guard: a PEP 578 audit hook that refuses, while a checked script runs,
what no scene script needs. It holds on its own: the checker may have let anything
through, and the guard still decides.

Security reasoning:
- Armed only while a checked script runs, on the thread that runs it (Blender's main
  thread): Blender's own work before and after, and the bridge's HTTP threads, are
  never slowed or refused.
- Default deny. While armed, an audited event on the script's thread is refused unless
  it is one of the few a scene script causes, and those are judged by their arguments:
  * `open`: read anywhere under Blender's and Python's own read-only resources or the
    session's output folder, write only inside the output folder. Paths are absolute,
    resolved (symbolic links followed), and taken from exact `str`/`bytes`/`pathlib`
    objects (an object of the script's own type could name one file to the check and
    another to the open); file descriptors are refused.
  * `import`: a module whose top-level name the policy allows (and the few modules those
    load lazily); native modules only from the read-only resources.
  * `compile`, `exec`, `marshal.loads`: only the script's own code, module code loaded
    from the read-only resources (the source or `.pyc` bytes must be those of the file),
    and the standard library's code generators (`namedtuple`, `dataclass`), called by
    their own code. Anything else that compiles or runs a string is refused: `eval` and
    `exec` in the script, and in Blender's operators (`WM_OT_context_toggle.execute`
    evaluates its `data_path`).
  * directory listings (read rule) and file changes (`os.remove`, `os.mkdir`, ...: write
    rule); attribute changes of interpreter internals (`__code__`, `__class__`) are
    refused.
  Everything else is refused: processes (`subprocess.Popen`, `os.system`, `os.exec*`,
  `os.posix_spawn`, `os.fork`), sockets, `ctypes`, `mmap`, frames (`sys._getframe`
  except for the standard library's own callers, traceback and generator frames),
  `gc` walks, code objects built by hand, trace and profile hooks, new audit hooks,
  `setrlimit`, environment and working-directory changes.
- Threads: while armed, every audited event of a thread that did not exist when the
  guard was armed is refused (a script cannot start a thread to get off the guarded
  one), and such a thread, still alive when the script ends, stays refused for good.
  CPython audits no thread start, and `_posixsubprocess.fork_exec` audits nothing: while
  armed it is taken out of every loaded module and put back afterwards.
- The guard's state lives only in the hook's closure and is driven by audit events
  (`capstan.guard.arm` hands back a fresh token object; `capstan.guard.disarm` needs
  it). The hook is referenced by the interpreter alone, and the ways to walk to a
  closure or a frame (`gc`, `sys._getframe`, `tb_frame`, `gi_frame`) are themselves
  refused while armed, so a script cannot switch the guard off.

What it does not cover (the checker's job): Blender's C code is not audited, so
operators and RNA functions that write files (`save_as_mainfile`, `image.save_render`)
are seen only by the checker; nor is code a script leaves behind to run after it ended
(a handler, a timer, a patched module function) once the guard is disarmed. Python's
audit hooks are a tripwire, not a sandbox (PEP 578); this one is one layer of several.
"""

import os
import sys
import threading

from . import policy

ARM = "capstan.guard.arm"
DISARM = "capstan.guard.disarm"


# File changes, their path arguments (written) and directory-descriptor arguments.
FILE_CHANGES = {
    "os.remove": ((0,), (1,)),
    "os.rmdir": ((0,), (1,)),
    "os.mkdir": ((0,), (2,)),
    "os.utime": ((0,), (3,)),
    "os.chmod": ((0,), (2,)),
    "os.chown": ((0,), (3,)),
    "os.truncate": ((0,), ()),
    "os.rename": ((0, 1), (2, 3)),
    "os.link": ((0, 1), (2, 3)),
    "os.symlink": ((1,), (2,)),
}


# Events that reach nothing (allowed on any thread, armed or not).
HARMLESS = frozenset(("builtins.id", "time.sleep", "sys.unraisablehook", "sys.excepthook", "array.__new__", "cpython._PySys_ClearAuditHooks"))


class Refused(PermissionError):
    """The runtime guard refused an operation of a checked script."""


def _refused(what):
    return Refused("capstan's runtime guard refused %s while a checked script runs" % what)


def _no_fork_exec(*args, **kwargs):
    raise _refused("starting a process")


def arm(script_code, output_dir):
    """Arm the guard on this thread for `script_code`; returns the token `disarm` needs."""
    reply = []
    sys.audit(ARM, reply, script_code, output_dir)
    if len(reply) != 1:
        raise RuntimeError("capstan's runtime guard is not installed")
    return reply[0]


def disarm(token):
    sys.audit(DISARM, token)


_installed = False


def install(read_only_roots, trusted_modules):
    """Add the hook (once per process). `read_only_roots` are folders scripts may read;
    `trusted_modules` are the modules whose own code may compile, run generated code
    and look at frames (the standard library's code generators, the deadline watchdog)."""
    global _installed
    if _installed:
        return
    _installed = True
    sys.addaudithook(_make_hook(read_only_roots, trusted_modules))


# The standard library's own code generators and frame readers, trusted to compile,
# run generated code and read frames when they are the caller: `namedtuple` evals the
# `__new__` it writes from validated field names; `@dataclass` execs the methods it
# writes; `typing` and `enum` read their caller's module name. (`typing.ForwardRef`,
# which evals any string, is deliberately not here.)
STDLIB_TRUSTED = (
    ("collections", "namedtuple"),
    ("dataclasses", "_create_fn"),
    ("dataclasses", "_FuncBuilder.add_fns_to_class"),  # Python 3.13's `_create_fn`
    ("typing", "_caller"),
    ("enum", "EnumType._create_"),
    # `@dataclass` builds the class's signature, which reads `__code__`/`__defaults__`.
    ("inspect", "_signature_from_function"),
)


def _code_objects(function):
    """A function's code object and every code object nested in it."""
    function = getattr(function, "__func__", function)
    found, todo = [], [function.__code__]
    while todo:
        code = todo.pop()
        found.append(code)
        todo.extend(c for c in code.co_consts if type(c) is type(code))
    return found


def _trusted_code_objects(own_modules):
    """The code objects whose calls may compile, exec or read frames: the standard
    library's generators (by name) and every function of capstan's own containment
    modules (the deadline watchdog installs its tracer from the script's thread)."""
    import importlib

    found = []
    for module_name, qualname in STDLIB_TRUSTED:
        obj = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part, None)
        if obj is not None:
            found.extend(_code_objects(obj))
    for module in own_modules:
        for value in list(vars(module).values()):
            members = list(vars(value).values()) if isinstance(value, type) else [value]
            for member in members:
                if hasattr(getattr(member, "__func__", member), "__code__") and getattr(member, "__module__", None) == module.__name__:
                    found.extend(_code_objects(member))
    return found


def _make_hook(read_only_roots, trusted_modules):
    get_ident = threading.get_ident
    realpath = os.path.realpath
    getframe = sys._getframe
    current_frames = sys._current_frames
    roots = tuple(sorted({realpath(r) for r in read_only_roots if r and os.path.isdir(r)}))
    trusted = _trusted_code_objects(trusted_modules)  # kept alive: ids stay theirs
    trusted_ids = frozenset(id(c) for c in trusted)
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_EXCL", 0)
    pure_paths = _pure_path_types()
    # Mutable state, reachable only through this closure.
    st = {
        "thread": None, "token": None, "code": None, "out": None,
        "known": frozenset(), "tainted": {}, "busy": False, "pyc": None, "hidden": [],
    }
    local = threading.local()

    def under(path, folders):
        return any(path == f or path.startswith(f + os.sep) for f in folders)

    def exact_path(p):
        """The path an open would use, without running any of the script's code."""
        if type(p) is str or isinstance(p, str):
            text = str.__add__("", p)
        elif type(p) is bytes or isinstance(p, bytes):
            text = os.fsdecode(bytes.__add__(b"", p))
        elif type(p) in pure_paths:
            text = str(p)
        else:
            raise _refused("a file named by a %s (use a plain path string)" % type(p).__name__)
        if "\0" in text or not os.path.isabs(text):
            raise _refused("the relative path %r (name files by absolute path inside the output folder)" % text)
        return realpath(text)

    def check_read(p, what):
        path = exact_path(p)
        if not (under(path, roots) or under(path, (st["out"],))):
            raise _refused("%s %r (outside the output folder and Blender's read-only resources)" % (what, path))
        return path

    def check_write(p, what):
        path = exact_path(p)
        if not under(path, (st["out"],)):
            raise _refused("%s %r (scripts write only inside the session's output folder)" % (what, path))
        return path

    def no_dir_fd(dir_fd):
        if dir_fd not in (None, -1):
            raise _refused("a path relative to a directory descriptor")

    def caller_trusted():
        """Is the Python code that caused this event one of the trusted functions?"""
        st["busy"] = True
        try:
            frame = getframe(3)  # 0: this function, 1: judge, 2: the hook, 3: the caller
            return frame is not None and id(frame.f_code) in trusted_ids
        finally:
            st["busy"] = False

    def same_as_file(path, data, skip):
        st["busy"] = True
        try:
            with open(path, "rb") as f:
                return f.read()[skip:] == bytes(data)
        except (OSError, TypeError, ValueError):
            return False
        finally:
            st["busy"] = False

    def code_from_resources(code):
        name = code.co_filename
        if type(name) is not str:
            return False
        if name.startswith("<frozen "):
            return True
        return os.path.isabs(name) and under(realpath(name), roots)

    def hide_fork_exec():
        try:
            import _posixsubprocess
        except ImportError:
            return
        original = getattr(_posixsubprocess, "fork_exec", None)
        if original is None:
            return
        for module in list(sys.modules.values()):
            namespace = getattr(module, "__dict__", None)
            if type(namespace) is not dict:
                continue
            for name, value in list(namespace.items()):
                if value is original:
                    namespace[name] = _no_fork_exec
                    st["hidden"].append((namespace, name, original))

    def restore_fork_exec():
        for namespace, name, original in st["hidden"]:
            if namespace.get(name) is _no_fork_exec:
                namespace[name] = original
        st["hidden"] = []

    def on_arm(args):
        if st["thread"] is not None:
            raise _refused("arming the guard again")
        reply, code, out = args
        if type(reply) is not list or type(code).__name__ != "code" or type(out) is not str:
            raise _refused("arming the guard with the wrong arguments")
        st["known"] = frozenset(current_frames())
        hide_fork_exec()
        st["code"], st["out"], st["pyc"] = code, realpath(out), None
        st["token"] = token = object()
        st["thread"] = get_ident()
        reply.append(token)

    def bottom(frame):
        while frame.f_back is not None:
            frame = frame.f_back
        return frame

    def on_disarm(args):
        if st["thread"] is None or len(args) != 1 or args[0] is not st["token"]:
            raise _refused("switching the guard off")
        st["thread"] = None
        # Threads the script started that are still alive stay refused for as long as
        # they live: each is known by the frame its thread began in (an ident is
        # reused once its thread is gone).
        for ident, frame in current_frames().items():
            if ident not in st["known"]:
                st["tainted"][ident] = bottom(frame)
        st["token"] = st["code"] = None
        restore_fork_exec()

    def still_tainted(ident):
        """Is this thread the tainted one with its ident (not a later thread)?"""
        local.busy = True
        try:
            if bottom(getframe(0)) is st["tainted"][ident]:
                return True
            del st["tainted"][ident]
            return False
        finally:
            local.busy = False

    def judge(event, args):
        if event == "open":
            path, mode, flags = args
            if type(path) is int:
                raise _refused("opening a file descriptor")
            if type(flags) is int and flags & write_flags:
                check_write(path, "writing")
            else:
                path = check_read(path, "reading")
                if path.endswith(".pyc"):
                    st["pyc"] = path
            return
        if event == "import":
            name, filename = args[0], args[1]
            top = policy.top_level(name) if type(name) is str else ""
            if top not in policy.ALLOWED_MODULES and top not in policy.LAZY_DEPENDENCIES:
                raise _refused("importing %r (not an allowed module)" % (name,))
            if filename is not None:
                check_read(filename, "loading the native module")
            return
        if event == "exec":
            code = args[0]
            if code is st["code"] or (type(code).__name__ == "code" and code_from_resources(code)) or caller_trusted():
                return
            raise _refused("running code that was not checked (exec/eval)")
        if event == "compile":
            source, filename = args
            if caller_trusted():
                return
            if type(filename) is str and os.path.isabs(filename) and under(realpath(filename), roots) and isinstance(source, (bytes, str)):
                data = source.encode("utf-8") if isinstance(source, str) else source
                if same_as_file(filename, data, 0):
                    return
            raise _refused("compiling a string (compile/eval/exec)")
        if event == "marshal.loads":
            pyc = st["pyc"]
            if pyc is not None and same_as_file(pyc, args[0], 16):
                return
            raise _refused("loading marshalled code")
        if event in ("os.listdir", "os.scandir"):
            if args[0] is not None:
                check_read(args[0], "listing")
            return
        if event in ("glob.glob", "glob.glob/2"):
            check_read(args[0], "listing")
            if event == "glob.glob/2":
                no_dir_fd(args[3])
            return
        if event in FILE_CHANGES:
            paths, fds = FILE_CHANGES[event]
            for i in paths:
                if type(args[i]) is int:
                    raise _refused("%s on a file descriptor" % event)
                check_write(args[i], "changing (%s)" % event)
            for i in fds:
                no_dir_fd(args[i])
            if event == "os.symlink":
                check_read(args[0], "linking to")
            return
        if event in ("object.__setattr__", "object.__delattr__"):
            name = args[1] if len(args) > 1 else None
            # A function given other code would run it as the trusted one it was.
            if name in ("__code__", "__class__"):
                raise _refused("changing %s of an object" % name)
            return
        if event in ("sys._getframe", "sys._getframemodulename", "object.__getattr__"):
            # `object.__getattr__`: frames, code objects and generator internals
            # (`tb_frame`, `f_back`, `gi_frame`, `__code__`).
            if caller_trusted():
                return
            raise _refused("looking at the interpreter's frames or code objects")
        if event in ("sys.settrace", "sys.setprofile", "ctypes.call_function", "ctypes.dlsym", "ctypes.cdata"):
            if caller_trusted():
                return
            raise _refused(event)
        if event in HARMLESS:
            return
        raise _refused(event)

    def hook(event, args):
        ident = get_ident()
        armed_thread = st["thread"]
        if ident in st["tainted"] and event not in HARMLESS and not getattr(local, "busy", False) and still_tainted(ident):
            raise _refused(event + " (from a thread a checked script started)")
        if armed_thread is None:
            if event == ARM:
                on_arm(args)
            return
        if ident != armed_thread:
            if ident in st["known"] or event in HARMLESS:
                return
            raise _refused(event + " (from a thread a checked script started)")
        if st["busy"]:
            return
        if event == DISARM:
            on_disarm(args)
            return
        judge(event, args)

    return hook


def _pure_path_types():
    import pathlib

    return tuple(t for t in (pathlib.PurePosixPath, pathlib.PureWindowsPath, pathlib.PosixPath, pathlib.WindowsPath) if isinstance(t, type))


def read_only_roots():
    """Blender's and Python's own folders, which scripts (and the modules they use)
    may read: the standard library, Blender's Python package, scripts and data files."""
    import sysconfig

    roots = [sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib")]
    try:
        import bpy

        roots.append(os.path.dirname(os.path.abspath(bpy.__file__)))
        for kind in ("LOCAL", "SYSTEM"):
            roots.append(bpy.utils.resource_path(kind))
    except Exception:  # outside Blender (plain Python tests of the guard)
        pass
    return [r for r in roots if r]


__all__ = ["ARM", "DISARM", "Refused", "arm", "disarm", "install", "read_only_roots"]
