"""The add-on's containment on its own, against real Blender (bpy): the payloads here go
straight to the bridge with a valid attestation, the checker never sees them (it
rejects every one), so what stops them is the runtime guard, the deadline or the memory
cap alone. Each hostile test asserts on the effect (no file, no process, no connection),
not only on the error."""

import glob
import json
import os
import socket
import threading
import time

import bpy
import pytest

from capstan_bridge.commands import python_exec
from attest import attested
from capstan_bridge.containment import attestation, guard, limits

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "capability-packs", "python-safety", "tests", "corpus")


def run(client, code):
    return client.call("execute_python", code=code, checked=attested(code))


@pytest.fixture(autouse=True)
def allowed(monkeypatch):
    monkeypatch.setenv(python_exec.ALLOW_ENV, "1")
    monkeypatch.setenv(limits.TIMEOUT_ENV, "3")


@pytest.fixture
def marker(tmp_path):
    """A path outside the output folder that no script may create."""
    path = tmp_path / "pwned"
    assert not path.exists()
    return path


def refused(doc, code="script_refused"):
    assert not doc["ok"], doc
    assert doc["error"]["code"] == code, doc
    return doc["error"]["message"]


# -- attestation ------------------------------------------------------------------


def test_the_runtime_file_carries_the_attestation_key(bridge):
    with open(bridge.runtime_path, encoding="utf-8") as f:
        key = json.load(f)["exec_key"]
    assert len(key) == 64 and key == attestation.key()
    assert os.stat(bridge.runtime_path).st_mode & 0o077 == 0


def test_a_script_runs_only_with_a_valid_unused_attestation(client):
    code = "result = 40 + 2"
    good = attested(code)
    assert client.ok("execute_python", code=code, checked=good)["result"] == 42
    replay = client.call("execute_python", code=code, checked=good)
    assert replay["error"]["code"] == "not_checked" and "replayed" in replay["error"]["message"]
    other = attested("result = 1")
    doc = client.call("execute_python", code=code, checked=dict(other, sha256=good["sha256"]))
    assert doc["error"]["code"] == "not_checked", doc
    wrong_key = attested(code, key="0" * 64)
    assert client.call("execute_python", code=code, checked=wrong_key)["error"]["code"] == "not_checked"
    digest_only = {k: good[k] for k in ("checker", "sha256")}
    assert client.call("execute_python", code=code, checked=digest_only)["error"]["code"] == "invalid_params"


# -- what scripts need still works ---------------------------------------------------


def _corpus(kind):
    return sorted(glob.glob(os.path.join(CORPUS, kind, "*.py")))


def _unguarded(code):
    """The script's outcome without any containment (some corpus scripts use API that
    Blender 5.0 removed): the contained run must end the same way."""
    import contextlib
    import io

    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, python_exec.SCRIPT_FILENAME, "exec"), python_exec.restricted_namespace())
        return None
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)


@pytest.mark.parametrize("path", _corpus("benign"), ids=os.path.basename)
def test_every_benign_corpus_script_runs_contained(client, path):
    with open(path, encoding="utf-8") as f:
        code = f.read()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    expected = _unguarded(code)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    doc = run(client, code)
    if expected is None:
        assert doc["ok"], doc
    else:
        # A script that failed half-way also reports what it changed (`delta`).
        assert {k: doc["error"][k] for k in ("code", "message")} == {"code": "script_error", "message": expected}, doc


def test_a_script_may_write_and_read_inside_the_output_folder(client, bridge):
    target = os.path.join(bridge.output_dir, "notes.txt")
    code = "import json\nb = json.dumps.__globals__['__builtins__']\nb['open'](%r, 'w').write('kept')\nresult = b['open'](%r).read()\n" % (target, target)
    assert client.ok("execute_python", code=code, checked=attested(code))["result"] == "kept"
    with open(target, encoding="utf-8") as f:
        assert f.read() == "kept"


# -- the guard alone -------------------------------------------------------------------

REAL = "import json, random\nb = json.dumps.__globals__['__builtins__']\nos = random._os\nsys = os.sys\n"


def test_no_process_through_os_system(client, marker):
    refused(run(client, REAL + "os.system('touch %s')\n" % marker))
    refused(run(client, REAL + "os.popen('touch %s').read()\n" % marker))
    assert not marker.exists()


def test_no_process_through_subprocess_or_its_unaudited_fork_exec(client, marker):
    code = REAL + "import_ = b['__import__']\nsp = sys.modules.get('subprocess') or import_('subprocess')\nsp.run(['touch', %r])\n" % str(marker)
    assert not run(client, code)["ok"]
    fork_exec = REAL + "fe = sys.modules['subprocess']._fork_exec\nfe([b'/usr/bin/touch'], [b'/usr/bin/touch', %r], True, (), None, None, -1, -1, -1, -1, -1, -1, -1, -1, False, False, None, None, None, -1, None, False)\n" % str(marker).encode()
    sys_modules_has_subprocess = "subprocess" in __import__("sys").modules
    doc = run(client, fork_exec)
    assert not doc["ok"], doc
    if sys_modules_has_subprocess:
        assert "starting a process" in doc["error"]["message"], doc
    assert not marker.exists()
    # Afterwards the real fork_exec is back for Blender's own use.
    import subprocess

    assert subprocess._fork_exec is __import__("_posixsubprocess").fork_exec


def test_no_process_from_a_thread_the_script_starts(client, marker):
    """Python 3.13 audits starting a thread, and the guard refuses that; before it, the
    thread starts and everything it does is refused."""
    later = "def later():\n    try:\n        sys.modules['time'].sleep(0.5)\n        os.system('touch %s')\n    except BaseException as e:\n        print(e)\n" % marker
    code = REAL + later + "th = sys.modules['threading']\nth.Thread(target=later).start()\nresult = 'started'\n"
    doc = run(client, code)
    if not doc["ok"]:
        assert "start_joinable_thread" in refused(doc), doc
    time.sleep(1.5)
    assert not marker.exists(), doc
    # A thread the script started right away is refused while it runs, too.
    now = REAL + "th = sys.modules['threading']\nout = []\ndef now():\n    try:\n        os.system('touch %s')\n    except BaseException as e:\n        out.append(str(e))\nt = th.Thread(target=now)\nt.start()\nt.join()\nresult = out\n" % marker
    doc = run(client, now)
    if doc["ok"]:
        assert "runtime guard" in doc["result"]["result"][0], doc
    else:
        assert "start_joinable_thread" in refused(doc), doc
    assert not marker.exists()


def test_no_socket(client):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(1.0)
    port = listener.getsockname()[1]
    try:
        message = refused(run(client, REAL + "s = sys.modules['socket'].create_connection(('127.0.0.1', %d))\n" % port))
        assert "socket" in message
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        listener.close()


def test_no_ctypes(client):
    refused(run(client, REAL + "ct = sys.modules.get('ctypes') or b['__import__']('ctypes')\nct.CDLL(None).system(b'true')\n"))


def test_no_imports_outside_the_policy(client):
    message = refused(run(client, REAL + "b['__import__']('pickletools')\n"))
    assert "pickletools" in message
    refused(run(client, REAL + "sys.modules['importlib'].import_module('xml.dom.minidom')\n"))


def test_no_files_outside_the_output_folder(client, marker, tmp_path):
    refused(run(client, REAL + "b['open'](%r, 'w').write('x')\n" % str(marker)))
    refused(run(client, REAL + "os.mkdir(%r)\n" % str(marker)))
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    message = refused(run(client, REAL + "result = b['open'](%r).read()\n" % str(secret)))
    assert "reading" in message
    refused(run(client, REAL + "result = os.listdir(%r)\n" % str(tmp_path)))
    refused(run(client, REAL + "b['open'](3, 'w')\n"))
    refused(run(client, REAL + "b['open']('relative.txt', 'w')\n"))
    assert not marker.exists()


def test_no_eval_exec_or_compile_of_strings(client, marker):
    for call in ("b['eval']('1 + 1')", "b['exec']('x = 1')", "b['compile']('1', 'x', 'eval')"):
        assert "compiling a string" in refused(run(client, REAL + call + "\n"))
    refused(run(client, REAL + "b['exec'](\"open(%r, 'w')\")\n" % str(marker)))
    assert not marker.exists()


def test_blender_operator_code_cannot_exec_for_the_script(client, marker):
    """The issue's two routes through bpy.types operator classes, without the checker."""
    toggle = "import bpy\nclass Props:\n    module = 'pathlib'\n    data_path = \"Path(%r).touch()\"\nbpy.types.WM_OT_context_toggle.execute(Props(), bpy.context)\n" % str(marker)
    assert "compiling a string" in refused(run(client, toggle))
    set_value = "import bpy\nclass Props:\n    data_path = \"scene if bpy.context.scene.__setitem__('p', open(%r, 'w').write('x')) else None\"\n    value = '0'\nbpy.types.WM_OT_context_set_value.execute(Props(), bpy.context)\n" % str(marker)
    refused(run(client, set_value))
    assert not marker.exists()


def test_no_frames_gc_or_switching_the_guard_off(client):
    refused(run(client, REAL + "sys._getframe()\n"))
    refused(run(client, "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    f = e.__traceback__.tb_frame\n"))
    refused(run(client, REAL + "sys.modules['gc'].get_objects()\n"))
    refused(run(client, REAL + "sys.audit('capstan.guard.disarm', None)\n"))
    refused(run(client, REAL + "sys.audit('capstan.guard.arm', [], None, '/')\n"))
    refused(run(client, REAL + "sys.settrace(None)\n"))
    refused(run(client, REAL + "r = sys.modules.get('resource') or b['__import__']('resource')\nr.setrlimit(r.RLIMIT_AS, (-1, -1))\n"))
    # And the guard is still on for the next script.
    refused(run(client, REAL + "os.system('true')\n"))


def test_the_guard_is_off_outside_scripts(client):
    assert run(client, REAL + "os.system('true')\n")["error"]["code"] == "script_refused"
    import subprocess

    assert subprocess.run(["true"]).returncode == 0  # Blender's own code is not guarded


# -- deadline and memory -----------------------------------------------------------------


def test_an_endless_loop_ends_at_the_deadline_and_blender_serves_on(client, monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1")
    started = time.monotonic()
    message = refused(run(client, "while True:\n    pass\n"), "script_timeout")
    assert "1 s" in message and "script_timeout_s" in message
    assert time.monotonic() - started < 10
    assert client.ok("get_scene_info")["objects"] is not None


def test_a_script_cannot_catch_the_deadline_and_carry_on(client, monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1")
    code = "n = 0\nwhile True:\n    try:\n        while True:\n            n += 1\n    except BaseException:\n        pass\n"
    refused(run(client, code), "script_timeout")
    code = "def spin():\n    while True:\n        pass\nwhile True:\n    try:\n        spin()\n    except BaseException:\n        continue\n"
    refused(run(client, code), "script_timeout")
    assert run(client, "result = 'after'")["result"]["result"] == "after"


def test_the_deadline_stays_shorter_than_the_hosts(monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "100000")
    assert limits.current().timeout_s <= limits.host_timeout_s() - limits.ANSWER_MARGIN_S
    monkeypatch.delenv(limits.TIMEOUT_ENV)
    assert limits.current().timeout_s == limits.DEFAULT_TIMEOUT_S < limits.host_timeout_s()


def test_a_memory_bomb_ends_at_the_cap_and_blender_serves_on(client, monkeypatch):
    monkeypatch.setenv(limits.MEMORY_ENV, "256")
    message = refused(run(client, "x = bytearray(8 * 1024 ** 3)\n"), "script_memory_limit")
    assert "256 MiB" in message
    refused(run(client, "xs = []\nwhile True:\n    xs.append(bytearray(16 * 1024 ** 2))\n"), "script_memory_limit")
    assert run(client, "result = len(bytearray(64 * 1024 ** 2))")["result"]["result"] == 64 * 1024 ** 2


def test_system_exit_ends_the_script_not_the_bridge(client):
    assert run(client, "raise SystemExit(3)")["error"]["code"] == "script_error"
    assert run(client, "raise KeyboardInterrupt")["error"]["code"] == "script_error"
    assert client.ok("get_scene_info") is not None


def test_refusals_name_the_guard():
    err = guard._refused("x")
    assert isinstance(err, PermissionError) and "runtime guard" in str(err)


def test_the_bridge_answers_ping_while_a_script_runs_and_after(client, bridge):
    """The guard is per thread: the HTTP threads (new connections included) serve on."""
    import urllib.request

    def ping():
        req = urllib.request.Request(client.base + "/ping", headers={"Authorization": "Bearer " + bridge.token})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())["bridge"]

    pings = []
    pinger = threading.Thread(target=lambda: (time.sleep(0.3), pings.append(ping())))
    pinger.start()
    doc = run(client, "import time\ntime.sleep(1.0)\nresult = 'slept'\n")
    pinger.join()
    assert doc["ok"] and pings == ["capstan"], (doc, pings)
    assert ping() == "capstan"
    assert client.ok("get_scene_info") is not None
