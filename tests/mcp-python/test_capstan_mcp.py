"""`capstan serve` as the official Python MCP SDK sees it."""

import asyncio
import base64
import json
import os
import subprocess

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def run(capstan_bin, home, body, expert=False):
    args = ["serve"] + (["--expert"] if expert else [])
    params = StdioServerParameters(command=capstan_bin, args=args, env=dict(os.environ, CAPSTAN_HOME=home))

    async def go():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return asyncio.run(go())


def doc(result):
    """structuredContent, checked against the text content (the same JSON)."""
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def test_guided_surface_lists_exactly_five_tools(capstan_bin, tmp_path):
    async def body(s):
        return sorted(t.name for t in (await s.list_tools()).tools)

    assert run(capstan_bin, str(tmp_path), body) == [
        "execute_capability", "get_capability_schema", "router_get_status", "router_set_goal", "search_capabilities",
    ]


def test_floor_phrases_route_and_errors_have_their_codes(capstan_bin, tmp_path):
    async def body(s):
        families = {}
        for phrase in ["add a cube", "three point lights", "make it look like chrome", "render a png",
                       "what's in the scene", "move the camera", "delete the default cube", "hdri background"]:
            families[phrase] = doc(await s.call_tool("router_set_goal", {"goal": phrase}))["family"]
        alias = await s.call_tool("execute_capability", {"key": "create_object", "arguments": {"type": "cube"}})
        unknown = await s.call_tool("execute_capability", {"key": "scene.nope", "arguments": {}})
        bad = await s.call_tool("execute_capability", {"key": "scene.create_object", "arguments": {"type": "teapot"}})
        return families, alias, unknown, bad

    families, alias, unknown, bad = run(capstan_bin, str(tmp_path), body)
    assert families == {
        "add a cube": "create", "three point lights": "lighting", "make it look like chrome": "material",
        "render a png": "render", "what's in the scene": "inspect", "move the camera": "camera",
        "delete the default cube": "mutate", "hdri background": "world",
    }
    for result, code in [(alias, "NON_CANONICAL_CAPABILITY"), (unknown, "CAPABILITY_NOT_FOUND"), (bad, "INVALID_CAPABILITY_ARGUMENTS")]:
        assert result.is_error
        assert doc(result)["error"]["code"] == code
    assert doc(alias)["error"]["canonical"] == "scene.create_object"


def test_a_guided_session_creates_an_object_in_real_blender(capstan_bin, blender_home):
    async def body(s):
        await s.call_tool("router_set_goal", {"goal": "add a cube"})
        found = doc(await s.call_tool("search_capabilities", {"query": "add a cube"}))
        schema = doc(await s.call_tool("get_capability_schema", {"key": found["results"][0]["key"]}))
        created = await s.call_tool("execute_capability", {"key": schema["key"], "arguments": {"type": "cube", "name": "PySdkCube", "location": [0, 0, 2]}})
        info = await s.call_tool("execute_capability", {"key": "scene.object_info", "arguments": {"name": "PySdkCube"}})
        status = doc(await s.call_tool("router_get_status", {}))
        return found, created, info, status

    found, created, info, status = run(capstan_bin, blender_home, body)
    assert found["results"][0]["key"] == "scene.create_object"
    assert not created.is_error, created
    assert doc(created)["delta"]["added"] == ["PySdkCube"]
    assert doc(info)["result"]["location"] == [0.0, 0.0, 2.0]
    assert status["availability"][0]["state"] == "available"
    assert [e["key"] for e in status["executions"]] == ["scene.create_object", "scene.object_info"]


def test_expert_surface_lists_every_capability(capstan_bin, blender_home):
    async def body(s):
        return {t.name: t for t in (await s.list_tools()).tools}

    tools = run(capstan_bin, blender_home, body, expert=True)
    # Every capability of the official packs that talk to Blender (`capstan packs list`):
    # one tool each; the apps not running here (FreeCAD) have theirs hidden.
    listed = json.loads(subprocess.run([capstan_bin, "packs", "list", "--json"], env=dict(os.environ, CAPSTAN_HOME=blender_home),
                                       capture_output=True, check=True).stdout)
    keys = {c["key"].replace(".", "__") for p in listed["packs"] if "blender" in p.get("servers", {"blender": "the workflows"})
            for c in p["capabilities"] if set(c.get("apps", ["blender"])) == {"blender"}}
    assert len(keys) >= 90 and set(tools) == keys, sorted(keys ^ set(tools))
    assert tools["mutate__modifier_add"].annotations.read_only_hint is False
    assert tools["rig__constraint"].annotations.destructive_hint is True, "it can remove constraints"
    assert tools["scene__info"].annotations.read_only_hint is True
    assert tools["scene__delete_object"].annotations.destructive_hint is True


def test_a_viewport_picture_arrives_as_image_content(capstan_bin, blender_home):
    async def body(s):
        return await s.call_tool("execute_capability", {"key": "inspect.viewport", "arguments": {"width": 32, "height": 24, "samples": 1}})

    shot = run(capstan_bin, blender_home, body)
    assert not shot.is_error, shot
    images = [c for c in shot.content if c.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png", shot.content
    png = base64.b64decode(images[0].data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == 32
    # The bytes travel once: the text and structured content carry a note, not base64.
    assert "sent as the image content block" in shot.structured_content["result"]["image"]["data"]


def test_an_output_schema_is_the_tools_output_schema_and_the_sdk_checks_the_answer(capstan_bin, blender_home):
    async def body(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        # The SDK validates structuredContent against the listed outputSchema itself.
        info = await s.call_tool("scene__object_info", {"name": "Cube"})
        missing = await s.call_tool("scene__object_info", {"name": "Nobody Here"})
        return tools, info, missing

    tools, info, missing = run(capstan_bin, blender_home, body, expert=True)
    # An error is not in the declared shape: no structuredContent (clients that check it
    # even on errors would refuse the answer); the text carries the error.
    assert missing.is_error and missing.structured_content is None, missing
    assert json.loads(missing.content[0].text)["error"]["app_error"]["code"] == "not_found", missing.content[0].text
    schema = tools["scene__object_info"].output_schema
    assert schema and schema["type"] == "object" and {"name", "dimensions", "location"} <= set(schema["properties"]), schema
    assert tools["scene__info"].output_schema is None, "a capability that declares none gets none"
    assert not info.is_error, info
    assert info.structured_content["name"] == "Cube" and info.structured_content["dimensions"] == [2.0, 2.0, 2.0]
    # The text keeps the whole answer (key, delta, bridge calls) around the result.
    whole = json.loads(info.content[0].text)
    assert whole["key"] == "scene.object_info" and whole["result"] == info.structured_content


def test_a_long_call_reports_progress_to_a_client_that_asks(capstan_bin, blender_home):
    waypoints = [{"frame": 1 + 10 * i, "location": [3.0 * i, 0, 0]} for i in range(4)]

    async def body(s):
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        made = await s.call_tool("execute_capability", {"key": "forensic.vehicle", "arguments": {"vehicle_type": "sedan", "name": "Progress Car"}})
        keyed = await s.call_tool(
            "execute_capability",
            {"key": "forensic.animate_vehicle", "arguments": {"vehicle_name": "Progress Car", "waypoints": waypoints}},
            progress_callback=on_progress,
        )
        quiet = await s.call_tool("execute_capability", {"key": "scene.info", "arguments": {"limit": 1}}, progress_callback=on_progress)
        return made, keyed, quiet, seen

    made, keyed, quiet, seen = run(capstan_bin, blender_home, body)
    assert not made.is_error and not keyed.is_error, (made, keyed)
    # One report per waypoint, in order, all before the answer (the pack's own
    # capstan:pack/progress calls, forwarded by the host).
    assert [(p, t) for p, t, _ in seen] == [(i + 1, 4) for i in range(4)], seen
    assert seen[0][2] == "keyed waypoint 1 of 4 (frame 1)", seen
    assert not quiet.is_error
