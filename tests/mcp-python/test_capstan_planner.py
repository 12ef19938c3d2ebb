"""`capstan serve --planner` as the official Python MCP SDK sees it: the five planner
tools, one planner session per connection, and a plan acted on and critiqued against
real Blender."""

import asyncio
import os
from contextlib import AsyncExitStack

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from test_capstan_mcp import doc

PLANNER_TOOLS = ["planner_act", "planner_critique", "planner_plan", "planner_set_goal", "planner_status"]


def params(capstan_bin, home):
    return StdioServerParameters(command=capstan_bin, args=["serve", "--planner"], env=dict(os.environ, CAPSTAN_HOME=home))


async def connect(stack, capstan_bin, home):
    read, write = await stack.enter_async_context(stdio_client(params(capstan_bin, home)))
    session = await stack.enter_async_context(ClientSession(read, write))
    await session.initialize()
    return session


def test_planner_surface_lists_its_five_tools_and_sessions_are_per_connection(capstan_bin, tmp_path):
    async def go():
        async with AsyncExitStack() as stack:
            a = await connect(stack, capstan_bin, str(tmp_path))
            b = await connect(stack, capstan_bin, str(tmp_path))
            names = sorted(t.name for t in (await a.list_tools()).tools)
            set_a = doc(await a.call_tool("planner_set_goal", {"goal": "add a cube called Crate"}))
            plan_b = await b.call_tool("planner_plan", {})
            status_b = doc(await b.call_tool("planner_status", {}))
            bad_profile = await a.call_tool("planner_set_goal", {"goal": "x", "profile": "chaos"})
            # No Blender runs in this home: a step is refused at the app gate, exactly as
            # execute_capability refuses it, and arguments are checked before that.
            plan_a = doc(await a.call_tool("planner_plan", {}))
            create = next(st for st in plan_a["plan"] if st["tool_hint"] == "scene.create_object")
            gated = await a.call_tool("planner_act", {"step_id": create["step_id"]})
            bad_args = await a.call_tool("planner_act", {"step_id": create["step_id"], "tool_args": {"type": "teapot"}})
            # Every planner tool's arguments are checked against its declared schema.
            flood = await a.call_tool("planner_critique", {"step_id": "step_1", "expectations": [{"kind": "visual"}] * 40})
            extra = await a.call_tool("planner_plan", {"max_steps": 3, "surprise": True})
            return names, set_a, plan_b, status_b, bad_profile, create, gated, bad_args, flood, extra

    names, set_a, plan_b, status_b, bad_profile, create, gated, bad_args, flood, extra = asyncio.run(go())
    assert names == PLANNER_TOOLS
    assert set_a["goal"] == "add a cube called Crate"
    assert plan_b.is_error and plan_b.structured_content["error"]["code"] == "NO_GOAL"
    assert status_b["goal"] is None
    assert bad_profile.is_error
    assert create["args"] == {"type": "cube", "name": "Crate"} and create["family"] == "create", create
    gate = gated.structured_content["error"]
    assert gated.is_error and gate["code"] == "APP_UNAVAILABLE", gate
    assert gate["availability"]["server"] == "blender" and gate["step_id"] == create["step_id"], gate
    refused = bad_args.structured_content["error"]
    assert bad_args.is_error and refused["code"] == "INVALID_CAPABILITY_ARGUMENTS", refused
    assert "teapot" in refused["message"], refused
    for r in (flood, extra):
        assert r.is_error and r.structured_content["error"]["code"] == "INVALID_TOOL_ARGUMENTS", r.structured_content


def test_plan_act_and_critique_against_real_blender(capstan_bin, blender_home):
    async def go():
        async with AsyncExitStack() as stack:
            s = await connect(stack, capstan_bin, blender_home)
            await s.call_tool("planner_set_goal", {"goal": "product hero shot of a bottle with a transparent background"})
            render_plan = doc(await s.call_tool("planner_plan", {"max_steps": 3}))
            await s.call_tool("planner_set_goal", {"goal": "add a cube called PyBox"})
            plan = doc(await s.call_tool("planner_plan", {}))
            look = doc(await s.call_tool("planner_act", {"step_id": "step_1"}))
            unknown = await s.call_tool("planner_act", {"step_id": "step_2", "tool_name": "blender_nuke_scene"})
            made = doc(await s.call_tool("planner_act", {
                "step_id": "step_2", "tool_name": "create_object",
                "tool_args": {"type": "cube", "name": "PyBox", "size": 1, "location": [6, 0, 0]},
            }))
            good = doc(await s.call_tool("planner_critique", {"step_id": "step_2", "expectations": [
                {"kind": "object_exists", "name": "PyBox"},
                {"kind": "delta", "added": 1, "added_type": "MESH", "only_changed": []},
            ]}))
            bad1 = doc(await s.call_tool("planner_critique", {"step_id": "step_2", "expectations": [
                {"kind": "property", "object": "PyBox", "path": "location.0", "equals": 0},
            ]}))
            bad2 = doc(await s.call_tool("planner_critique", {"step_id": "step_2", "expectations": [
                {"kind": "spatial", "constraints": [{"type": "on_top_of", "object": "PyBox", "support": "Cube"}]},
            ]}))
            status = doc(await s.call_tool("planner_status", {}))
            return render_plan, plan, look, unknown, made, good, bad1, bad2, status

    render_plan, plan, look, unknown, made, good, bad1, bad2, status = asyncio.run(go())
    hints = [st["tool_hint"] for st in render_plan["plan"]]
    assert len(hints) == 3 and hints[-2:] == ["render.audit", "scene.render"], hints
    assert plan["plan"][0]["tool_hint"] == "scene.info"
    assert look["status"] == "done"
    assert unknown.is_error and unknown.structured_content["error"]["code"] == "CAPABILITY_NOT_FOUND"
    assert made["resolved"]["capability"] == "scene.create_object"
    assert made["resolved"]["alias"] == "create_object"
    assert "PyBox" in made["delta"]["added"]
    assert good["critique"]["passed"] is True and good["critique"]["score"] == 1.0
    assert bad1["critique"]["passed"] is False and abs(bad1["critique"]["checks"][0]["measured"] - 6.0) < 1e-4
    assert bad1["fix_step"] == "step_2_fix_1" and bad2["fix_step"] == "step_2_fix_2"
    ids = [st["step_id"] for st in status["steps"]]
    assert "step_2_fix_1" in ids and "step_2_fix_2" in ids and len(ids) == len(set(ids))
    assert status["critique_failures"] == 2
