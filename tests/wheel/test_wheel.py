"""The wheel, installed as a user would: `capstan` from a fresh venv, no Rust anywhere
on PATH, a guided MCP session (official Python SDK) creating an object in real Blender.

scripts/test builds the wheel with maturin, installs it into a fresh venv with
`pip install --no-index --no-deps`, and runs this with CAPSTAN_WHEEL_VENV naming that
venv and CAPSTAN_TEST_BLENDER a Python with bpy. Nothing here skips: a missing venv,
binary or Blender is a failure."""

import asyncio
import json
import os
import shutil
import subprocess
import tempfile

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

RUST_TOOLS = ("cargo", "rustc", "rustup")


@pytest.fixture(scope="module")
def installed():
    venv = os.environ.get("CAPSTAN_WHEEL_VENV")
    assert venv and os.path.isdir(venv), "set CAPSTAN_WHEEL_VENV to the venv the wheel was installed into"
    binary = os.path.join(venv, "bin", "capstan")
    assert os.path.isfile(binary) and os.access(binary, os.X_OK), binary
    # The user's machine: the venv, then the system's folders; no toolchain anywhere.
    path = os.pathsep.join([os.path.join(venv, "bin"), "/usr/local/bin", "/usr/bin", "/bin"])
    for tool in RUST_TOOLS:
        found = shutil.which(tool, path=path)
        assert found is None, f"{tool} is on the test PATH ({found}): the test must run without Rust"
    home = tempfile.mkdtemp(prefix="capstan-wheel-")
    env = {"PATH": path, "HOME": os.path.join(home, "user"), "CAPSTAN_HOME": home, "LANG": "C.UTF-8"}
    os.makedirs(env["HOME"])
    return binary, env


def test_version_names_the_bridges_the_wheel_carries(installed):
    binary, env = installed
    out = subprocess.run([binary, "--version"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("capstan ") and "Blender bridge " in out.stdout, out.stdout


def test_a_guided_session_from_the_wheel_creates_an_object_in_real_blender(installed):
    binary, env = installed
    blender = os.environ.get("CAPSTAN_TEST_BLENDER")
    assert blender, "set CAPSTAN_TEST_BLENDER to a Blender or a Python with bpy"
    launcher = subprocess.Popen([binary, "blender", "launch", "--background", "--blender", blender],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = launcher.stdout.readline()
        assert "is up" in line, line + launcher.stderr.read()

        async def session():
            params = StdioServerParameters(command=binary, args=["serve"], env=env)
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    tools = sorted(t.name for t in (await s.list_tools()).tools)
                    await s.call_tool("router_set_goal", {"goal": "add a cube"})
                    found = (await s.call_tool("search_capabilities", {"query": "add a cube"})).structured_content
                    key = found["results"][0]["key"]
                    await s.call_tool("get_capability_schema", {"key": key})
                    created = await s.call_tool("execute_capability", {"key": key, "arguments": {"type": "cube", "name": "WheelCube", "location": [1, 2, 3]}})
                    info = await s.call_tool("execute_capability", {"key": "scene.object_info", "arguments": {"name": "WheelCube"}})
                    return tools, key, created, info

        tools, key, created, info = asyncio.run(session())
    finally:
        launcher.terminate()
        launcher.wait(timeout=30)
    assert tools == ["execute_capability", "get_capability_schema", "router_get_status", "router_set_goal", "search_capabilities"]
    assert key == "scene.create_object"
    assert not created.is_error, created.content[0].text
    assert created.structured_content["delta"]["added"] == ["WheelCube"]
    assert not info.is_error, info.content[0].text
    assert info.structured_content["result"]["location"] == [1.0, 2.0, 3.0]
    assert json.loads(info.content[0].text) == info.structured_content
