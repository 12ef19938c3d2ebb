"""`capstan eval --agent`: external agents that act only through MCP (the official
Python SDK), measured at the MCP boundary, judged in real Blender.

- The reference trajectory agent (host/eval/agents/trajectory_agent.py) reaches the
  same verdict as capstan's in-process trajectory run on every task of the shipped
  suite, and each task's report gives its MCP calls per tool and bytes.
- The reference planner agent drives `serve --planner` and reaches the verdicts of
  `capstan eval --planner` on a slice of the suite.
- An agent that fails, hangs, or acts on its own is reported as such."""

import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
AGENTS = os.path.join(REPO, "host", "eval", "agents")
SUITE = os.path.join(REPO, "host", "eval", "suite.json")


def run_eval(capstan_bin, *args, suite=None):
    """`capstan eval --json` in a fresh CAPSTAN_HOME against the test Blender."""
    env = dict(os.environ, CAPSTAN_HOME=tempfile.mkdtemp(prefix="capstan-eval-agent-"), CAPSTAN_BLENDER=os.environ["CAPSTAN_TEST_BLENDER"])
    command = [capstan_bin, "eval", "--json", *args] + (["--suite", suite] if suite else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode in (0, 1), done.stderr[-3000:]
    return json.loads(done.stdout)


def agent(name):
    return f"{sys.executable} {os.path.join(AGENTS, name)}"


def verdicts(report):
    return {t["id"]: t["status"] for t in report["tasks"]}


def slice_of_suite(tmp_path, ids):
    with open(SUITE, encoding="utf-8") as f:
        suite = json.load(f)
    suite["tasks"] = [t for t in suite["tasks"] if t["id"] in ids]
    assert len(suite["tasks"]) == len(ids)
    path = tmp_path / "slice.json"
    path.write_text(json.dumps(suite))
    return str(path)


def test_the_trajectory_agent_over_mcp_reaches_the_in_process_verdicts(capstan_bin):
    in_process = run_eval(capstan_bin)
    over_mcp = run_eval(capstan_bin, "--agent", agent("trajectory_agent.py"), "--give-trajectory")
    assert len(in_process["tasks"]) >= 73
    assert verdicts(over_mcp) == verdicts(in_process)
    assert over_mcp["totals"]["passed"] == in_process["totals"]["passed"] > 0
    by_id = {t["id"]: t for t in in_process["tasks"]}
    for task in over_mcp["tasks"]:
        run = task["agent"]
        assert task["source"] == "agent" and run["exit_code"] == 0 and not run["timed_out"], task
        # The same capability calls, one execute_capability each, seen at the boundary.
        assert run["calls_by_tool"].get("execute_capability", 0) == by_id[task["id"]]["tool_calls"], task["id"]
        assert [c["capability"] for c in task["calls"]] == [c["capability"] for c in by_id[task["id"]]["calls"]], task["id"]
        assert run["calls_by_tool"]["router_set_goal"] == 1 and run["calls_by_tool"]["search_capabilities"] == 1
        assert run["bytes_in"] > 0 and run["bytes_out"] > run["bytes_in"] and task["bytes"] == run["bytes_in"] + run["bytes_out"]
        assert run["lists"] >= 1 and run["seconds"] > 0
        assert sum(run["errors_by_code"].values()) == task["calls_failed"]


PLANNER_SLICE = ["red-cube-on-floor", "uv-sphere", "monkey", "sun", "rename-cube", "whats-in-scene"]


def test_the_planner_agent_drives_serve_planner_to_the_in_process_planner_verdicts(capstan_bin, tmp_path):
    with open(SUITE, encoding="utf-8") as f:
        known = {t["id"] for t in json.load(f)["tasks"]}
    ids = [i for i in PLANNER_SLICE if i in known]
    assert len(ids) >= 4, f"the slice names tasks the shipped suite no longer has: {set(PLANNER_SLICE) - known}"
    suite = slice_of_suite(tmp_path, ids)
    in_process = run_eval(capstan_bin, "--planner", suite=suite)
    over_mcp = run_eval(capstan_bin, "--agent", agent("planner_agent.py"), "--agent-surface", "planner", suite=suite)
    assert verdicts(over_mcp) == verdicts(in_process)
    assert over_mcp["totals"]["passed"] >= 3
    for task in over_mcp["tasks"]:
        run = task["agent"]
        assert run["exit_code"] == 0, run
        assert run["calls_by_tool"]["planner_set_goal"] == 1 and run["calls_by_tool"]["planner_plan"] == 1
        # Every step the agent acted on ran a capability the record names.
        assert run["calls_by_tool"].get("planner_act", 0) == len(task["calls"])
        assert all(c["capability"] for c in task["calls"])


def slice_with_copies(tmp_path, task_id, copies):
    """A suite of `task_id` under each id of `copies`."""
    with open(SUITE, encoding="utf-8") as f:
        task = next(t for t in json.load(f)["tasks"] if t["id"] == task_id)
    path = tmp_path / "copies.json"
    path.write_text(json.dumps({"version": 1, "tasks": [dict(task, id=c) for c in copies]}))
    return str(path)


# One agent, told apart by task: it crashes, hangs, or records what it was given.
PROBE = """
import json, os, sys, time
task = os.environ["CAPSTAN_EVAL_TASK_ID"]
if task == "crash":
    sys.exit("gave up: no model")
if task == "hang":
    time.sleep(60)
if task == "escape":
    # A daemon that leaves the agent's process group and would act after it exits.
    import subprocess
    subprocess.Popen(["setsid", "sh", "-c", "sleep 3; touch " + ESCAPED], start_new_session=True)
    sys.exit(0)
told = {"argv": sys.argv[1:], "env": {k: v for k, v in os.environ.items() if k.startswith("CAPSTAN_")}}
command = json.loads(os.environ["CAPSTAN_MCP_COMMAND"])
token = json.load(open(command[command.index("--instance") + 1]))["token"]
told["token_seen"] = token in json.dumps(told) + json.dumps(dict(os.environ))
json.dump(told, open(SEEN, "w"))
"""


def test_an_agent_that_fails_hangs_or_is_missing_fails_its_task_and_is_told_only_what_it_needs(capstan_bin, tmp_path):
    suite = slice_with_copies(tmp_path, "uv-sphere", ["crash", "hang", "escape", "probe"])
    probe, seen, escaped = tmp_path / "probe.py", tmp_path / "seen.json", tmp_path / "escaped"
    probe.write_text(PROBE.replace("SEEN", repr(str(seen))).replace("ESCAPED", repr(str(escaped))))
    report = run_eval(capstan_bin, "--agent", f"{sys.executable} {probe}", "--agent-timeout", "3", suite=suite)
    crashed, hung, escape, probed = report["tasks"]
    # The daemon that left the process group was ended with its agent: it never acted.
    assert escape["agent"]["exit_code"] == 0
    time.sleep(4)
    assert not escaped.exists(), "a process the agent left behind outlived its task"
    assert crashed["status"] == "failed" and crashed["agent"]["exit_code"] == 1
    assert "gave up: no model" in crashed["agent"]["stderr_tail"]
    assert crashed["agent"]["failed"].startswith("the agent exited with status 1: gave up: no model")
    assert hung["status"] == "failed" and hung["agent"]["timed_out"] and hung["agent"]["calls_by_tool"] == {}
    assert "did not finish within" in hung["agent"]["failed"]
    # The probe did nothing: the sphere is missing, and the task fails on its assertions.
    assert probed["status"] == "failed" and probed["tool_calls"] == 0 and probed["agent"]["exit_code"] == 0
    told = json.loads(seen.read_text())
    assert told["argv"] == [probed["goal"]] and told["env"]["CAPSTAN_GOAL"] == probed["goal"]
    command = json.loads(told["env"]["CAPSTAN_MCP_COMMAND"])
    assert command[1] == "serve" and "--record" in command and "--instance" in command
    assert "CAPSTAN_EVAL_TRAJECTORY" not in told["env"]
    # Nothing the agent is given holds the bridge token (the probe read it to compare).
    assert told["token_seen"] is False
    missing = run_eval(capstan_bin, "--agent", "/nonexistent/agent", suite=suite)["tasks"][0]
    assert missing["status"] == "error" and "cannot start the agent" in missing["error"]
