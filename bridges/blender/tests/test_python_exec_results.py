"""What execute_python hands back, and what it leaves behind (issue 26, finding 1):
a plain-data copy of the script's `result`, made under the runtime guard, and nothing
the script made outliving the guard. Against real Blender (bpy). The scripts go straight
to the bridge with a valid attestation (the checker would reject most of them), so what
is tested is the add-on's own layer."""

import gc
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import weakref

import pytest

from attest import attested
from capstan_bridge.commands import python_exec
from capstan_bridge.containment import attestation, limits, plain, runner

# Reach the real builtins and `os` the way a hostile script does past the checker.
REAL = "import json, random\nb = json.dumps.__globals__['__builtins__']\nos = random._os\nsys = os.sys\n"


def run(client, code):
    return client.call("execute_python", code=code, checked=attested(code))


@pytest.fixture(autouse=True)
def allowed(monkeypatch):
    monkeypatch.setenv(python_exec.ALLOW_ENV, "1")
    monkeypatch.setenv(limits.TIMEOUT_ENV, "5")


@pytest.fixture
def marker(tmp_path):
    """A file outside the output folder that a finaliser tries to create with a process."""
    path = tmp_path / "pwned"
    assert not path.exists()
    return path


@pytest.fixture
def note(bridge):
    """A file in the output folder where a finaliser writes what happened to it."""
    path = os.path.join(bridge.output_dir, "finaliser-%d.txt" % time.monotonic_ns())
    yield path
    if os.path.exists(path):
        os.remove(path)


def _lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().splitlines() if line]


def _finaliser_class(base, marker, note):
    """A class of the script's own whose `__del__` tries to start a process and writes
    to `note` whether it could (its names are bound now: the namespace is gone by the
    time it runs)."""
    return (
        "class Evil(%s):\n"
        "    def __del__(self, os=os, b=b, note=%r, marker=%r):\n"
        "        try:\n"
        "            os.system('touch ' + marker)\n"
        "            outcome = 'ran'\n"
        "        except BaseException as e:\n"
        "            outcome = 'refused: %%s' %% e\n"
        "        b['open'](note, 'a').write(outcome + '\\n')\n" % (base, note, str(marker))
    )


def _afterwards(client):
    """What used to run a kept finaliser: the next script, and a collection outside any."""
    assert run(client, "result = 'next'")["ok"]
    gc.collect()


def test_a_dict_subclass_result_is_copied_and_its_finaliser_runs_guarded(client, marker, note):
    code = REAL + _finaliser_class("dict", marker, note) + "result = Evil(a=1, b=[1, 2])\n"
    doc = run(client, code)
    assert doc["ok"], doc
    assert doc["result"]["result"] == {"a": 1, "b": [1, 2]}
    # The finaliser ran once, inside the script's window, and the guard refused it.
    lines = _lines(note)
    assert len(lines) == 1 and lines[0].startswith("refused: capstan's runtime guard refused os.system"), lines
    _afterwards(client)
    assert _lines(note) == lines, "the script's object outlived the script"
    assert not marker.exists()


def test_a_cycle_of_the_scripts_objects_is_collected_under_the_guard(client, marker, note):
    code = REAL + _finaliser_class("dict", marker, note) + "e = Evil(a=1)\ne.me = e\nresult = e\n"
    doc = run(client, code)
    assert doc["ok"], doc
    assert doc["result"]["result"] == {"a": 1}
    lines = _lines(note)
    assert len(lines) == 1 and lines[0].startswith("refused:"), lines
    _afterwards(client)
    assert _lines(note) == lines
    assert not marker.exists()


def test_a_cycle_left_by_a_script_stopped_at_its_deadline_never_runs_unguarded(client, monkeypatch, marker, note):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1")
    code = REAL + _finaliser_class("list", marker, note) + "e = Evil([1])\ne.me = e\nresult = e\nwhile True:\n    pass\n"
    doc = run(client, code)
    assert not doc["ok"] and doc["error"]["code"] == "script_timeout", doc
    # Past the deadline the finaliser may be stopped before its first line; whatever
    # it got to do, it did under the guard, and never again.
    lines = _lines(note)
    assert all(line.startswith("refused:") for line in lines), lines
    _afterwards(client)
    assert _lines(note) == lines
    assert not marker.exists()


def test_a_finaliser_that_never_ends_is_stopped_at_the_deadline(client, monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1")
    code = (
        "class Stubborn:\n"
        "    def __del__(self):\n"
        "        while True:\n"
        "            try:\n"
        "                while True:\n"
        "                    pass\n"
        "            except BaseException:\n"
        "                pass\n"
        "keep = [Stubborn() for i in range(3)]\n"
        "result = 'done'\n"
    )
    started = time.monotonic()
    doc = run(client, code)
    assert time.monotonic() - started < 10
    assert not doc["ok"] and doc["error"]["code"] == "script_timeout", doc
    assert run(client, "result = 'after'")["result"]["result"] == "after"


def test_scalar_and_container_subclasses_are_copied_by_value(client):
    code = (
        "class S(str):\n"
        "    def __str__(self):\n"
        "        return 'lie'\n"
        "    def __repr__(self):\n"
        "        return 'lie'\n"
        "    def __hash__(self):\n"
        "        return 1\n"
        "class I(int):\n"
        "    def __int__(self):\n"
        "        return 666\n"
        "    def __index__(self):\n"
        "        return 666\n"
        "    def __repr__(self):\n"
        "        return '666'\n"
        "class F(float):\n"
        "    def __float__(self):\n"
        "        return 6.66\n"
        "    def __repr__(self):\n"
        "        return '6.66'\n"
        "class D(dict):\n"
        "    def items(self):\n"
        "        return [('lie', 1)]\n"
        "    def __iter__(self):\n"
        "        return iter(['lie'])\n"
        "class L(list):\n"
        "    def __iter__(self):\n"
        "        return iter(['lie'])\n"
        "class T(tuple):\n"
        "    def __iter__(self):\n"
        "        return iter(['lie'])\n"
        "result = {'s': S('true'), 'i': I(7), 'f': F(1.5), S('k'): D(x=L([1, T((2, S('two')))])), I(3): None,\n"
        "          'b': True, 'n': None, 'inf': float('inf'), 'nan': float('nan')}\n"
    )
    doc = run(client, code)
    assert doc["ok"], doc
    assert doc["result"]["result"] == {
        "s": "true", "i": 7, "f": 1.5, "k": {"x": [1, [2, "two"]]}, "3": None,
        "b": True, "n": None, "inf": "inf", "nan": "nan",
    }


def test_other_values_are_described_and_the_result_is_bounded(client):
    doc = run(client, "import bpy\nresult = {'set': {3}, 'scene': bpy.context.scene, 'v': bpy.context.scene.cursor.location}\n")
    assert doc["ok"], doc
    r = doc["result"]["result"]
    assert r["set"] == "{3}" and "Scene" in r["scene"] and r["v"].startswith("Vector(")
    deep = run(client, "x = []\nfor i in range(100):\n    x = [x]\nresult = x\n")
    assert deep["error"]["code"] == "script_error" and "deeper than %d" % plain.MAX_DEPTH in deep["error"]["message"], deep
    loop = run(client, "x = []\nx.append(x)\nresult = x\n")
    assert loop["error"]["code"] == "script_error" and "deeper than" in loop["error"]["message"], loop
    wide = run(client, "result = list(range(%d))\n" % (plain.MAX_ITEMS + 1))
    assert wide["error"]["code"] == "script_error" and "more than %d values" % plain.MAX_ITEMS in wide["error"]["message"], wide
    big = run(client, "result = ['x' * 1000000] * 5\n")
    assert big["error"]["code"] == "script_error" and "%d-byte bound" % plain.MAX_JSON_BYTES in big["error"]["message"], big


def test_the_copy_has_only_exact_builtin_types():
    class S(str):
        pass

    class Liar:
        """Claims to be a dict to `isinstance`."""

        @property
        def __class__(self):
            return dict

    assert isinstance(Liar(), dict)
    copied = plain.copy({S("k"): [S("v"), (1, 2.0)], "liar": Liar()})
    assert copied["k"][0] == "v" and copied["liar"].startswith("<")

    def walk(value):
        assert type(value) in (dict, list, str, int, float, bool, type(None)), type(value)
        if type(value) is dict:
            for k, v in value.items():
                assert type(k) is str
                walk(v)
        elif type(value) is list:
            for v in value:
                walk(v)

    walk(copied)


def test_finalizers_and_gc_callbacks_a_script_leaves_behind_are_dropped(client, marker):
    registry = weakref.finalize._registry
    before_finalizers = set(registry)
    before_callbacks = list(gc.callbacks)
    code = REAL + (
        "wr = sys.modules['weakref']\n"
        "wr.finalize(json, os.system, 'touch %s')\n"
        "gc = sys.modules['gc']\n"
        "gc.callbacks.append(lambda phase, info: os.system('touch %s'))\n"
        "result = 'left'\n" % (marker, marker)
    )
    doc = run(client, code)
    assert doc["ok"], doc
    assert set(registry) == before_finalizers
    assert gc.callbacks == before_callbacks
    gc.collect()
    assert not marker.exists()


def test_ping_reports_the_guard_on(client):
    status, doc = client.raw("GET", "/ping")
    assert status == 200 and doc["layers"]["guard"] is True, doc


# -- CAPSTAN_TEST_UNGUARDED=1: the guard off, everything else on ------------------------------


def _start_bridge(tmp_path, extra_env):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    home = tmp_path / "home"
    runtime = tmp_path / "server.json"
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, CAPSTAN_HOME=str(home), **extra_env)
    for name in (attestation.KEY_ENV, limits.TIMEOUT_ENV, limits.MEMORY_ENV):
        env.pop(name, None)
    env.update({limits.TIMEOUT_ENV: "1", limits.MEMORY_ENV: "256"})
    stderr = open(tmp_path / "stderr.txt", "w+b")
    with socket.socket() as probe:  # a port nobody uses now (others' Blenders may hold 9876-9885)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, os.path.join(here, "run_bridge.py"), "--port", str(port), "--runtime-file", str(runtime), "--output-dir", str(out)],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, cwd=str(tmp_path),
    )
    deadline = time.monotonic() + 60
    while not runtime.exists():
        assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
        assert time.monotonic() < deadline, "the bridge did not start"
        time.sleep(0.1)
    time.sleep(0.2)
    with open(runtime, encoding="utf-8") as f:
        info = json.load(f)
    return proc, info, stderr


def _stop_bridge(proc, stderr):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    stderr.seek(0)
    text = stderr.read().decode("utf-8", "replace")
    stderr.close()
    return text


def _request(info, method, path, doc=None):
    req = urllib.request.Request(info["http"] + path, data=json.dumps(doc).encode() if doc else None, method=method)
    req.add_header("Authorization", "Bearer " + info["token"])
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _exec(info, code, checked=None):
    checked = checked or attested(code, key=info["exec_key"])
    return _request(info, "POST", "/bridge", {"id": "u%d" % time.monotonic_ns(), "command": "execute_python", "params": {"code": code, "checked": checked}})


def test_unguarded_runs_scripts_without_the_guard_but_with_every_other_layer(tmp_path):
    proc, info, stderr = _start_bridge(tmp_path, {runner.UNGUARDED_ENV: "1", python_exec.ALLOW_ENV: "1"})
    try:
        assert _request(info, "GET", "/ping")["layers"]["guard"] is False
        # No guard, and Python's full builtins: a plain `import os` and `open` work.
        secret = tmp_path / "outside.txt"
        secret.write_text("read without a guard")
        doc = _exec(info, "import os\nresult = [os.getpid(), open(%r).read()]\n" % str(secret))
        assert doc["ok"] and doc["result"]["result"] == [proc.pid, "read without a guard"], doc
        # The result is still a plain copy.
        doc = _exec(info, "class D(dict):\n    pass\nresult = D(a=1)\n")
        assert doc["ok"] and doc["result"]["result"] == {"a": 1}, doc
        # The deadline, the memory cap and the attestation still hold.
        doc = _exec(info, "while True:\n    pass\n")
        assert doc["error"]["code"] == "script_timeout", doc
        doc = _exec(info, "x = bytearray(8 * 1024 ** 3)\n")
        assert doc["error"]["code"] == "script_memory_limit", doc
        doc = _exec(info, "result = 1", checked=attested("result = 1", key="0" * 64))
        assert doc["error"]["code"] == "not_checked", doc
        # A script cannot switch the guard back off for the next one: the switch was read at start.
        doc = _exec(info, "import os\nos.environ['%s'] = '0'\nresult = 1\n" % runner.UNGUARDED_ENV)
        assert doc["ok"], doc
        assert _exec(info, "import os\nresult = os.getpid()\n")["ok"]
    finally:
        text = _stop_bridge(proc, stderr)
    assert "CAPSTAN_TEST_UNGUARDED=1" in text and "WITHOUT the runtime guard" in text, text


def test_the_switch_is_read_once_at_start(tmp_path):
    """Guarded at start: a script that changes the environment behind the guard's back
    does not make the next script unguarded."""
    proc, info, stderr = _start_bridge(tmp_path, {python_exec.ALLOW_ENV: "1"})
    try:
        assert _request(info, "GET", "/ping")["layers"]["guard"] is True
        flip = REAL + "os.environ._data[os.environ.encodekey('%s')] = os.environ.encodevalue('1')\nresult = 'flipped'\n" % runner.UNGUARDED_ENV
        assert _exec(info, flip)["ok"]
        doc = _exec(info, REAL + "os.system('true')\n")
        assert doc["error"]["code"] == "script_refused", doc
    finally:
        text = _stop_bridge(proc, stderr)
    assert "CAPSTAN_TEST_UNGUARDED" not in text


def test_the_bridge_ignores_modules_planted_before_the_standard_library(tmp_path):
    """The add-on's folder is last on sys.path, and nothing writable (the working
    directory, PYTHONPATH) comes before the standard library: modules planted there
    under standard names never run."""
    planted = tmp_path / "planted"
    planted.mkdir()
    witness = tmp_path / "planted-ran"
    for name in ("argparse", "json", "shlex", "secrets"):
        (planted / ("%s.py" % name)).write_text("open(%r, 'a').write(%r)\n" % (str(witness), name))
        (tmp_path / ("%s.py" % name)).write_text("open(%r, 'a').write(%r)\n" % (str(witness), name))
    # A `capstan_bridge` earlier on the path (as a legacy add-on install would put one) is not the one loaded.
    (planted / "capstan_bridge").mkdir()
    (planted / "capstan_bridge" / "__init__.py").write_text("open(%r, 'a').write('capstan_bridge')\n" % str(witness))
    proc, info, stderr = _start_bridge(tmp_path, {"PYTHONPATH": str(planted)})
    try:
        assert _request(info, "GET", "/ping")["bridge"] == "capstan"
    finally:
        text = _stop_bridge(proc, stderr)
    assert not witness.exists(), witness.read_text()
    # This test tree is writable, so the add-on says so.
    assert "can write into the add-on's own folder" in text, text


def test_the_import_path_is_arranged():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import run_bridge

    writable = {"/home/u/pp", "/home/u/zip.zip"}
    path = ["", "rel", "/addon", "/home/u/pp", "/ro/pp", "/home/u/zip.zip", "/std", "/std/lib-dynload", "/site", "/addon/"]
    arranged = run_bridge.arrange_import_path(path, "/addon", "/std", may_write=lambda p: p in writable)
    assert arranged == ["/ro/pp", "/std", "/std/lib-dynload", "/home/u/pp", "/home/u/zip.zip", "/site", "/addon"]
    assert path[0] == ""  # not changed in place


def test_the_write_probe_leaves_nothing_behind(tmp_path):
    from capstan_bridge.core import addon_folder

    (tmp_path / "capstan_bridge").mkdir()
    (tmp_path / "capstan_bridge" / "x.py").write_text("x = 1\n")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    found = addon_folder.writable_places(str(tmp_path), "capstan_bridge")
    assert str(tmp_path) in found and str(tmp_path / "capstan_bridge" / "x.py") in found
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "capstan_bridge" / "x.py").read_text() == "x = 1\n"


def test_streams_hooks_and_builtins_a_script_replaces_are_put_back_under_the_guard(client, marker, note):
    import builtins
    import threading

    before = (sys.stdout, sys.stderr, sys.unraisablehook, sys.excepthook, threading.excepthook, builtins.print)
    code = REAL + _finaliser_class("object", marker, note) + (
        "def evil(*args, **kwargs):\n"
        "    os.system('touch %s')\n"
        "sys.stdout = Evil()\n"
        "sys.unraisablehook = evil\n"
        "sys.excepthook = evil\n"
        "sys.modules['threading'].excepthook = evil\n"
        "b['print'] = evil\n"
        "b['planted'] = Evil()\n"
        "result = 'replaced'\n" % marker
    )
    doc = run(client, code)
    assert doc["ok"], doc
    assert (sys.stdout, sys.stderr, sys.unraisablehook, sys.excepthook, threading.excepthook, builtins.print) == before
    assert not hasattr(builtins, "planted")
    lines = _lines(note)
    assert len(lines) == 2 and all(line.startswith("refused:") for line in lines), lines
    _afterwards(client)
    print("printing calls the real print")
    assert _lines(note) == lines
    assert not marker.exists()


@pytest.mark.parametrize("code", [
    # The exception's message never ends: reading it is the script's code too.
    "class E(Exception):\n    def __str__(self):\n        while True:\n            pass\nraise E()\n",
    # The deadline's monitoring tool freed (Python 3.12+) before the loop that catches.
    REAL + "m = getattr(sys, 'monitoring', None)\nif m:\n    m.free_tool_id(3)\n    m.free_tool_id(4)\n"
    "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n",
], ids=["endless_message", "monitoring_freed"])
def test_the_deadline_holds_whatever_the_script_does_to_it(client, monkeypatch, code):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1")
    started = time.monotonic()
    doc = run(client, code)
    assert time.monotonic() - started < 10
    assert not doc["ok"] and doc["error"]["code"] == "script_timeout", doc
    assert run(client, "result = 'after'")["result"]["result"] == "after"
