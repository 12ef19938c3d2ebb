"""`execute_python`: run a script that capstan's checker accepted, in a restricted
namespace, with its printed output captured.

Three conditions, all checked here (the host is not trusted to have done it):
- this add-on's own setting allows it: the add-on preference "Allow execute_python"
  when the add-on is enabled in Blender's preferences, or `CAPSTAN_BRIDGE_ALLOW_EXEC=1`
  in Blender's environment (headless); off by default;
- the request says the script was checked (`checked.sha256` must be the sha256 of
  exactly this `code`, and `checked.checker` names the checker component);
- the script runs with builtins that cannot open files, import freely, eval or exec:
  `__import__` is replaced by a guard that imports only the allowed top-level modules.
"""

import builtins
import contextlib
import hashlib
import io
import json
import os

from .. import schema as s
from ..command import command
from ..errors import CommandError

ALLOW_ENV = "CAPSTAN_BRIDGE_ALLOW_EXEC"
MAX_STDOUT = 64 * 1024

# The same list as the checker's default policy (capability-packs/python-safety/policy.json;
# a test keeps the two equal).
ALLOWED_MODULES = frozenset("""bpy bmesh mathutils bpy_extras bl_math idprop math cmath random json colorsys
itertools functools collections re statistics fractions decimal enum typing dataclasses copy bisect heapq time
datetime textwrap array numbers abc""".split())

SAFE_BUILTINS = """abs all any ascii bin bool bytearray bytes callable chr classmethod complex dict dir divmod
enumerate filter float format frozenset getattr hasattr hash hex id int isinstance issubclass iter len list map max
min next object oct ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum
super tuple type zip ArithmeticError AssertionError AttributeError BaseException Exception FloatingPointError
GeneratorExit IndexError KeyError KeyboardInterrupt LookupError MemoryError NameError NotImplementedError
OverflowError RecursionError RuntimeError StopIteration TypeError ValueError ZeroDivisionError ExceptionGroup
True False None NotImplemented Ellipsis""".split()


def allowed():
    from .. import preferences

    return os.environ.get(ALLOW_ENV) == "1" or preferences.allow_execute_python() is True


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0 or name.split(".")[0] not in ALLOWED_MODULES:
        raise ImportError("importing %r is not allowed in capstan scripts" % name)
    return builtins.__import__(name, globals, locals, fromlist, level)


def restricted_namespace():
    safe = {name: getattr(builtins, name) for name in SAFE_BUILTINS if hasattr(builtins, name)}
    safe["__import__"] = _guarded_import
    safe["__build_class__"] = builtins.__build_class__  # `class` statements need it
    return {"__builtins__": safe, "__name__": "__capstan_script__"}


class _CappedText(io.StringIO):
    def __init__(self):
        super().__init__()
        self.truncated = False

    def write(self, s):
        room = MAX_STDOUT - self.tell()
        if room <= 0:
            self.truncated = True
            return len(s)
        if len(s) > room:
            self.truncated = True
        return super().write(s[:room])


def _jsonable(value):
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:4096]


SHA256 = s.string(pattern="^[0-9a-f]{64}$")


@command(
    effect="mutate",
    summary="Run a Python script that capstan's safety checker accepted, in a restricted namespace; returns printed output and the script's `result` variable.",
    params=s.obj({
        "code": s.string(1, 1048576),
        "checked": s.obj({"checker": SHA256, "sha256": SHA256}, required=("checker", "sha256")),
    }, required=("code", "checked")),
    result=s.obj({"stdout": s.string(), "stdout_truncated": s.boolean(), "result": s.any_value()},
                 required=("stdout", "stdout_truncated", "result")),
    errors=("exec_disabled", "not_checked", "script_error"),
    timeout_s=120,
    host_only=True,
    # A script can touch anything, so its delta comes from a whole-scene snapshot.
    full_delta=True,
)
def execute_python(ctx, params):
    if not allowed():
        raise CommandError(
            "exec_disabled",
            "this Blender's capstan bridge does not run Python (enable \"Allow execute_python\" in the add-on's preferences, or set %s=1 for a headless Blender)" % ALLOW_ENV,
        )
    code = params["code"]
    checked = params["checked"]
    digest = hashlib.sha256(code.encode("utf-8")).hexdigest()
    if checked.get("sha256") != digest:
        raise CommandError("not_checked", "the request does not carry the checker's verdict for this exact script")
    namespace = restricted_namespace()
    out = _CappedText()
    try:
        compiled = compile(code, "<capstan-script>", "exec", dont_inherit=True)
        with contextlib.redirect_stdout(out):
            exec(compiled, namespace)
    except SyntaxError as e:
        raise CommandError("script_error", "SyntaxError: %s (line %s)" % (e.msg, e.lineno))
    except Exception as e:
        raise CommandError("script_error", "%s: %s" % (type(e).__name__, e))
    return {
        "stdout": out.getvalue(),
        "stdout_truncated": out.truncated,
        "result": _jsonable(namespace.get("result")),
    }
