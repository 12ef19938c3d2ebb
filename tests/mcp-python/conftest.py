"""Fixtures for driving `capstan serve` with the official Python MCP SDK (PyPI `mcp`).

Needs CAPSTAN_BIN (the capstan binary) and CAPSTAN_TEST_BLENDER (a Python with bpy, or
a Blender); scripts/test sets both."""

import os
import subprocess
import tempfile

import pytest


@pytest.fixture(scope="session")
def capstan_bin():
    path = os.environ.get("CAPSTAN_BIN")
    assert path and os.path.isfile(path), "set CAPSTAN_BIN to the capstan binary"
    return path


@pytest.fixture(scope="session")
def blender_home(capstan_bin):
    """A CAPSTAN_HOME with a real headless Blender running its bridge."""
    blender = os.environ.get("CAPSTAN_TEST_BLENDER")
    assert blender, "set CAPSTAN_TEST_BLENDER to a Blender or a Python with bpy"
    home = tempfile.mkdtemp(prefix="capstan-mcp-py-")
    env = dict(os.environ, CAPSTAN_HOME=home)
    launcher = subprocess.Popen(
        [capstan_bin, "blender", "launch", "--background", "--blender", blender],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    line = launcher.stdout.readline()
    assert "is up" in line, line + launcher.stderr.read()
    yield home
    launcher.terminate()
    launcher.wait(timeout=30)
