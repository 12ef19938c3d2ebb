"""execute_python on the add-on side: its own switch, the attestation binding, the
restricted namespace, captured output. Against real Blender (bpy). The containment
layers have their own tests (test_containment.py)."""

import hashlib

import bpy
import pytest

from attest import attested
from capstan_bridge.commands import python_exec


def run(client, code, sha=None):
    checked = attested(code)
    if sha:
        checked["sha256"] = sha
    return client.call("execute_python", code=code, checked=checked)


@pytest.fixture
def allowed(monkeypatch):
    monkeypatch.setenv(python_exec.ALLOW_ENV, "1")


def test_off_unless_the_addon_setting_allows_it(client, monkeypatch):
    monkeypatch.delenv(python_exec.ALLOW_ENV, raising=False)
    doc = run(client, "result = 1")
    assert not doc["ok"] and doc["error"]["code"] == "exec_disabled"


def test_the_digest_must_be_of_this_exact_script(client, allowed):
    doc = run(client, "result = 2", sha=hashlib.sha256(b"result = 1").hexdigest())
    assert not doc["ok"] and doc["error"]["code"] == "not_checked"
    doc = client.call("execute_python", code="result = 1")
    assert not doc["ok"] and doc["error"]["code"] == "invalid_params"


def test_an_accepted_script_runs_with_output_and_result(client, allowed):
    code = "import bpy\nbpy.ops.mesh.primitive_torus_add()\nt = bpy.context.active_object\nt.name = 'ExecTorus'\nprint('hello', t.name)\nresult = {'n': len(bpy.data.objects)}\n"
    r = client.ok("execute_python", code=code, checked=attested(code))
    assert r["stdout"] == "hello ExecTorus\n"
    assert r["result"]["n"] == len(bpy.data.objects)
    assert "ExecTorus" in r["delta"]["added"]


@pytest.mark.parametrize(
    "code",
    [
        "open('/etc/passwd').read()",
        "import os",
        "__import__('os')",
        "eval('1')",
        "exec('x = 1')",
        "compile('1', 'x', 'eval')",
        "from . import x",
        "globals()",
        "import subprocess",
    ],
)
def test_the_namespace_has_no_files_imports_eval_or_exec(client, allowed, code):
    doc = run(client, code)
    assert not doc["ok"] and doc["error"]["code"] == "script_error", doc


def test_printed_output_is_capped(client, allowed):
    r = run(client, "for i in range(100000):\n    print('x' * 80)\n")
    assert r["ok"], r
    assert r["result"]["stdout_truncated"] is True
    assert len(r["result"]["stdout"]) == python_exec.MAX_STDOUT


def test_the_import_guard_allows_what_the_checker_policy_allows():
    """The add-on's guard and the checker's default policy are two copies of one list
    (the add-on must not take its restrictions from the host's request)."""
    import json
    import os

    policy = os.path.join(os.path.dirname(__file__), "..", "..", "..", "capability-packs", "python-safety", "policy.json")
    with open(policy, encoding="utf-8") as f:
        assert python_exec.ALLOWED_MODULES == frozenset(json.load(f)["allowed_modules"])
