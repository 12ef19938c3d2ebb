"""`execute_python`: run a script that capstan's checker accepted, contained, with its
printed output captured.

Checked here, none of it taken on the host's word:
- this add-on's own setting allows it: the add-on preference "Allow execute_python"
  when the add-on is enabled in Blender's preferences, or `CAPSTAN_BRIDGE_ALLOW_EXEC=1`
  in Blender's environment (headless); off by default;
- the host checked this exact script: `checked` carries an HMAC over the script, the
  checker's digest and a single-use nonce, keyed by this bridge's secret
  (`containment/attestation.py`);
- the script runs with builtins that cannot open files, import freely, eval or exec
  (`__import__` imports only the allowed top-level modules), under the runtime guard,
  a deadline and a memory cap (`containment/`), which hold even if the checker was
  wrong about the script;
- what comes back is a plain-data copy of the script's `result` (builtin JSON types
  only, bounded), made under the guard, and nothing the script made outlives it
  (`containment/plain.py`, `containment/runner.py`).

With the test switch CAPSTAN_TEST_UNGUARDED=1 (read once at start) a script gets
Python's full builtins and no runtime guard: the restricted builtins are part of the
add-on's own layer, and the switch exists to show that the OS layer holds alone.
"""

import builtins
import io
import os

from ..core import schema as s
from ..command import command
from ..containment import attestation, limits, policy, runner
from ..errors import CommandError

ALLOW_ENV = "CAPSTAN_BRIDGE_ALLOW_EXEC"
MAX_STDOUT = 64 * 1024
SCRIPT_FILENAME = "<capstan-script>"

ALLOWED_MODULES = policy.ALLOWED_MODULES

SAFE_BUILTINS = """abs all any ascii bin bool bytearray bytes callable chr classmethod complex dict dir divmod
enumerate filter float format frozenset getattr hasattr hash hex id int isinstance issubclass iter len list map max
min next object oct ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum
super tuple type zip ArithmeticError AssertionError AttributeError BaseException Exception FloatingPointError
GeneratorExit IndexError KeyError KeyboardInterrupt LookupError MemoryError NameError NotImplementedError
OverflowError RecursionError RuntimeError StopIteration TypeError ValueError ZeroDivisionError ExceptionGroup
True False None NotImplemented Ellipsis""".split()

# How a contained script's end is reported (the host maps timeout and memory to PACK_FAULT).
ERROR_CODES = {"error": "script_error", "refused": "script_refused", "timeout": "script_timeout", "memory": "script_memory_limit"}


def allowed():
    from .. import preferences

    return os.environ.get(ALLOW_ENV) == "1" or preferences.allow_execute_python() is True


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0 or name.split(".")[0] not in ALLOWED_MODULES:
        raise ImportError("importing %r is not allowed in capstan scripts" % name)
    return builtins.__import__(name, globals, locals, fromlist, level)


def restricted_namespace():
    if runner.unguarded():
        return {"__builtins__": dict(vars(builtins)), "__name__": "__capstan_script__"}
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


SHA256 = s.string(pattern="^[0-9a-f]{64}$")
NONCE = s.string(pattern="^[0-9a-f]{32}$")


@command(
    effect="mutate",
    summary="Run a Python script that capstan's safety checker accepted (attested by an HMAC), contained by a runtime guard, a deadline and a memory cap; returns printed output and the script's `result` variable.",
    params=s.obj({
        "code": s.string(1, 1048576),
        "checked": s.obj({"checker": SHA256, "sha256": SHA256, "nonce": NONCE, "mac": SHA256},
                         required=("checker", "sha256", "nonce", "mac")),
    }, required=("code", "checked")),
    result=s.obj({"stdout": s.string(), "stdout_truncated": s.boolean(), "result": s.any_value()},
                 required=("stdout", "stdout_truncated", "result")),
    errors=("exec_disabled", "not_checked", "script_error", "script_refused", "script_timeout", "script_memory_limit"),
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
    try:
        attestation.verify(code, params["checked"])
    except attestation.NotAttested as e:
        raise CommandError("not_checked", str(e))
    try:
        compiled = compile(code, SCRIPT_FILENAME, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise CommandError("script_error", "SyntaxError: %s (line %s)" % (e.msg, e.lineno))
    out = _CappedText()
    ended = runner.run(compiled, restricted_namespace(), ctx.output_dir, limits.current(), out, lambda ns: ns.get("result"))
    if ended.kind != "ok":
        raise CommandError(ERROR_CODES[ended.kind], ended.message)
    return {
        "stdout": out.getvalue(),
        "stdout_truncated": out.truncated,
        "result": ended.value,
    }
