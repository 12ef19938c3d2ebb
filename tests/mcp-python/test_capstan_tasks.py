"""Long calls as MCP tasks (issue 29 §4), through the official Python MCP SDK.

The SDK (mcp 2.3.0) has no tasks client of its own; it has the generic extension
hooks (`ClientExtension`, `ResultClaim`) the `io.modelcontextprotocol/tasks`
extension (SEP-2663) rides on. `Tasks` below is that client, written against the
extension's wire shapes: it declares the extension, claims `resultType: "task"`
answers of `tools/call`, and polls `tasks/get` / sends `tasks/cancel` as plain
requests. The client speaks 2026-07-28 (`mode="auto"`: stateless, the capability
in every request's `_meta`), the revision the extension belongs to."""

import asyncio
import json
import os
import time
from typing import Any, Literal

from mcp import Client, StdioServerParameters
from mcp.client.extension import ClientExtension, ResultClaim
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, CancelTaskRequestParams, GetTaskRequestParams, Request, Result

from test_capstan_mcp import doc, run

TASKS = "io.modelcontextprotocol/tasks"


class TaskHandle(Result):
    """A `tools/call` answered with a task (`CreateTaskResult`)."""

    result_type: Literal["task"]
    task_id: str
    status: str
    status_message: str | None = None
    poll_interval_ms: int | None = None


class TaskState(Result):
    """`tasks/get`: the task, with its result or error once it is done."""

    task_id: str
    status: str
    status_message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


async def get(session, task_id):
    return await session.send_request(Request(method="tasks/get", params=GetTaskRequestParams(task_id=task_id)), TaskState)


async def poll(session, task_id, seen, until=lambda s: s.status in ("completed", "failed", "cancelled"), timeout=240):
    """tasks/get until `until`; every state on the way noted in `seen`."""
    deadline = time.monotonic() + timeout
    while True:
        state = await get(session, task_id)
        seen.append(state)
        if until(state):
            return state
        assert time.monotonic() < deadline, [s.status_message for s in seen[-5:]]
        await asyncio.sleep(0.2)


class Tasks(ClientExtension):
    identifier = TASKS

    def claims(self):
        async def resolve(handle, ctx):
            state = await poll(ctx.session, handle.task_id, [])
            assert state.status == "completed", state
            return CallToolResult.model_validate(state.result)

        return [ResultClaim(result_type="task", model=TaskHandle, resolve=resolve)]


def run_tasks(capstan_bin, home, body):
    # A cold home compiles its packs on the first start, longer than the SDK waits
    # for `server/discover`: one plain session first.
    run(capstan_bin, home, lambda s: s.list_tools())
    params = StdioServerParameters(command=capstan_bin, args=["serve"], env=dict(os.environ, CAPSTAN_HOME=home))

    async def go():
        async with Client(stdio_client(params), mode="auto", extensions=[Tasks()]) as client:
            return await body(client)

    return asyncio.run(go())


def render(arguments):
    return {"key": "scene.render", "arguments": arguments}


def test_a_render_runs_as_a_task_with_progress_and_its_result(capstan_bin, blender_home):
    async def body(c):
        s = c.session
        handle = await s.call_tool("execute_capability", render({"filename": "task_small", "engine": "cycles", "resolution": [64, 36], "samples": 2}), allow_claimed=True)
        seen = []
        final = await poll(s, handle.task_id, seen)
        # A quick read stays a plain answer even for a tasks client.
        quick = await c.call_tool("execute_capability", {"key": "scene.info", "arguments": {"limit": 1}})
        # The SDK's own path: Client.call_tool resolves the claimed task handle.
        resolved = await c.call_tool("execute_capability", render({"filename": "task_resolved", "resolution": [32, 18], "samples": 1}))
        return handle, seen, final, quick, resolved

    handle, seen, final, quick, resolved = run_tasks(capstan_bin, blender_home, body)
    assert isinstance(handle, TaskHandle) and handle.status == "working" and handle.poll_interval_ms == 500, handle
    assert final.status == "completed", final
    answer = CallToolResult.model_validate(final.result)
    assert not answer.is_error, answer
    result = json.loads(answer.content[0].text)["result"]
    assert result["file"] == "task_small.png" and [result["width"], result["height"]] == [64, 36], result
    assert all(s.task_id == handle.task_id for s in seen)
    assert not quick.is_error and isinstance(doc(quick)["result"].get("objects"), list), quick
    assert not resolved.is_error and json.loads(resolved.content[0].text)["result"]["file"] == "task_resolved.png", resolved


def _record(home):
    with open(os.path.join(home, "run", "blender", "server.json")) as f:
        return json.load(f)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_1080p_render_task_shows_progress_inside_the_render_and_a_cancel_stops_blender(capstan_bin, blender_home):
    """The acceptance of issue 29 §4: a 1080p render started as a task is polled with
    progress that moves within the render (Blender's own frame, samples and seconds),
    then cancelled; Blender stops within 5 s (capstan ends the process it launched), the
    supervisor starts it again from the checkpoint taken before the render, and the next
    call is answered, in the scene as it was."""
    before = _record(blender_home)
    assert isinstance(before.get("supervisor"), int) and before["supervisor"] > 1 and _alive(before["supervisor"]), "capstan blender launch supervises its instance"

    async def body(c):
        s = c.session
        made = await c.call_tool("execute_capability", {"key": "scene.create_object", "arguments": {"type": "monkey", "name": "MadeBeforeTheRender"}})
        assert not made.is_error, made
        handle = await s.call_tool("execute_capability", render({"filename": "task_cancel", "engine": "cycles", "resolution": [1920, 1080], "samples": 4096}), allow_claimed=True)
        seen = []
        # Progress from inside the render: Blender's seconds move between two polls.
        def moved(state):
            inside = [x.status_message for x in seen if "Blender: render" in (x.status_message or "")]
            return len(set(inside)) >= 2
        await poll(s, handle.task_id, seen, until=moved, timeout=120)
        asked = time.monotonic()
        await s.send_request(Request(method="tasks/cancel", params=CancelTaskRequestParams(task_id=handle.task_id)), Result)
        while _alive(before["pid"]) and time.monotonic() - asked < 10:
            await asyncio.sleep(0.05)
        stopped_after = time.monotonic() - asked
        final = await poll(s, handle.task_id, seen, timeout=60)
        after = await c.call_tool("execute_capability", {"key": "scene.object_info", "arguments": {"name": "MadeBeforeTheRender"}})
        return seen, stopped_after, final, after

    seen, stopped_after, final, after = run_tasks(capstan_bin, blender_home, body)
    inside = [x.status_message for x in seen if "Blender: render" in (x.status_message or "")]
    assert len(set(inside)) >= 2 and all("frame" in m and " s" in m for m in inside), inside
    assert stopped_after < 5, "Blender stopped %.1f s after the cancel" % stopped_after
    assert final.status == "cancelled", final
    assert not after.is_error, after
    assert doc(after)["result"]["name"] == "MadeBeforeTheRender", "the scene from before the render"
    now = _record(blender_home)
    assert now["pid"] != before["pid"] and _alive(now["pid"]), (before["pid"], now["pid"])
    # The cancelled render is never run again by the restarted Blender.
    output = os.path.join(blender_home, "instances", now["instance"], "output")
    time.sleep(2)
    assert not [f for f in os.listdir(output) if f.startswith("task_cancel")], os.listdir(output)
