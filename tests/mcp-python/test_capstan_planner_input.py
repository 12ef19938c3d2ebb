"""A plan step the goal does not complete is asked of the user, with the official Python
MCP SDK's elicitation handler answering: by `elicitation/create` in form mode on a
2025-11-25 connection, by the input-required round on a 2026-07-28 one. The answered
step then runs in real Blender. A client that can be asked nothing gets the step back
as a structured `needs_input`, and nothing is sent."""

import asyncio
import os
import uuid

from mcp import Client, StdioServerParameters, types

from test_capstan_mcp import doc


def server(capstan_bin, home):
    return StdioServerParameters(command=capstan_bin, args=["serve", "--planner"], env=dict(os.environ, CAPSTAN_HOME=home))


def the_text_step(plan):
    return next(s for s in plan["plan"] if s["tool_hint"] == "create.text")


async def plan_text(client):
    await client.call_tool("planner_set_goal", {"goal": "add some 3d text"})
    plan = doc(await client.call_tool("planner_plan", {}))
    return plan, the_text_step(plan)


def run_with_an_answer(capstan_bin, home, mode, text):
    asked = []

    async def answer(context, params):
        asked.append(params)
        return types.ElicitResult(action="accept", content={"text": text})

    async def go():
        async with Client(server(capstan_bin, home), mode=mode, elicitation_callback=answer) as client:
            plan, step = await plan_text(client)
            done = doc(await client.call_tool("planner_act", {"step_id": step["step_id"]}))
            status = doc(await client.call_tool("planner_status", {}))
            return client.protocol_version, plan, step, done, status

    version, plan, step, done, status = asyncio.run(go())
    return asked, version, plan, step, done, status


def check_asked_and_ran(asked, step, done, status, text):
    assert step["status"] == "needs_input" and step["missing"] == ["text"], step
    need = step["needs_input"][0]
    assert need["argument"] == "text" and need["schema"]["type"] == "string", need
    assert len(asked) == 1, asked
    form = asked[0]
    assert form.mode == "form" and "text" in form.requested_schema["properties"], form
    assert step["step_id"] in form.message, form.message
    assert done["status"] == "done" and done["resolved"]["args"]["text"] == text, done
    assert done["result"]["name"], done
    ran = next(s for s in status["steps"] if s["step_id"] == step["step_id"])
    assert ran["status"] == "done", ran


def test_a_2025_11_25_client_is_asked_by_elicitation_create(capstan_bin, blender_home):
    text = "Hello " + uuid.uuid4().hex[:6]
    asked, version, _, step, done, status = run_with_an_answer(capstan_bin, blender_home, "legacy", text)
    assert version == "2025-11-25", version
    check_asked_and_ran(asked, step, done, status, text)


def test_a_2026_07_28_client_answers_the_input_required_round(capstan_bin, blender_home):
    text = "Round " + uuid.uuid4().hex[:6]
    asked, version, _, step, done, status = run_with_an_answer(capstan_bin, blender_home, "2026-07-28", text)
    assert version == "2026-07-28", version
    check_asked_and_ran(asked, step, done, status, text)


def test_the_round_by_hand_a_forged_state_runs_nothing(capstan_bin, blender_home):
    async def go():
        async with Client(server(capstan_bin, blender_home), mode="2026-07-28") as client:
            _, step = await plan_text(client)
            args = {"step_id": step["step_id"]}
            first = await client.session.call_tool("planner_act", args, allow_input_required=True)
            answer = {"step_input": {"action": "accept", "content": {"text": "Forged"}}}
            forged = await client.session.call_tool("planner_act", args, input_responses=answer, request_state="0" * 32, allow_input_required=True)
            status = doc(await client.call_tool("planner_status", {}))
            return step, first, forged, status

    step, first, forged, status = asyncio.run(go())
    assert isinstance(first, types.InputRequiredResult), first
    assert first.request_state and "step_input" in first.input_requests, first
    # A state this connection did not issue asks again; the step has not run.
    assert isinstance(forged, types.InputRequiredResult), forged
    assert forged.request_state != "0" * 32
    assert next(s for s in status["steps"] if s["step_id"] == step["step_id"])["status"] == "needs_input"


def test_a_client_that_cannot_be_asked_gets_needs_input_and_nothing_runs(capstan_bin, blender_home):
    async def go():
        async with Client(server(capstan_bin, blender_home), mode="legacy") as client:
            _, step = await plan_text(client)
            held = await client.call_tool("planner_act", {"step_id": step["step_id"]})
            answered = doc(await client.call_tool("planner_act", {"step_id": step["step_id"], "tool_args": {"text": "By hand"}}))
            return held, answered

    held, answered = asyncio.run(go())
    error = held.structured_content["error"]
    assert held.is_error and error["code"] == "INVALID_CAPABILITY_ARGUMENTS", error
    assert error["needs_input"][0]["argument"] == "text", error
    assert answered["status"] == "done", answered


def test_a_declined_question_runs_nothing(capstan_bin, blender_home):
    async def decline(context, params):
        return types.ElicitResult(action="decline")

    async def go():
        async with Client(server(capstan_bin, blender_home), mode="legacy", elicitation_callback=decline) as client:
            _, step = await plan_text(client)
            return await client.call_tool("planner_act", {"step_id": step["step_id"]})

    held = asyncio.run(go())
    error = held.structured_content["error"]
    assert held.is_error and "declined" in error["message"] and error["needs_input"], error


def test_at_least_one_of_several_is_asked_as_optional_choices(capstan_bin, blender_home):
    asked = []

    async def answer(context, params):
        asked.append(params)
        return types.ElicitResult(action="accept", content={"location": "[0, 0, 3]", "not_asked": "dropped"})

    async def go():
        async with Client(server(capstan_bin, blender_home), mode="legacy", elicitation_callback=answer) as client:
            await client.call_tool("planner_set_goal", {"goal": "move the cube"})
            plan = doc(await client.call_tool("planner_plan", {}))
            step = next(s for s in plan["plan"] if s["tool_hint"] == "scene.modify_object")
            done = doc(await client.call_tool("planner_act", {"step_id": step["step_id"]}))
            return step, done

    step, done = asyncio.run(go())
    assert step["status"] == "needs_input" and " | " in step["missing"][0], step
    form = asked[0].requested_schema
    assert "location" in form["properties"] and not form.get("required"), form
    assert done["status"] == "done" and done["resolved"]["args"] == {"name": "Cube", "location": [0, 0, 3]}, done


def test_an_answer_for_a_plan_that_changed_meanwhile_runs_nothing(capstan_bin, blender_home):
    holder = {}

    async def answer_after_changing_the_goal(context, params):
        client = holder["client"]
        await client.call_tool("planner_set_goal", {"goal": "save the scene as a blend file"})
        await client.call_tool("planner_plan", {})
        return types.ElicitResult(action="accept", content={"text": "Stale"})

    async def go():
        async with Client(server(capstan_bin, blender_home), mode="legacy", elicitation_callback=answer_after_changing_the_goal) as client:
            holder["client"] = client
            _, step = await plan_text(client)
            held = await client.call_tool("planner_act", {"step_id": step["step_id"]})
            status = doc(await client.call_tool("planner_status", {}))
            return held, status

    held, status = asyncio.run(go())
    error = held.structured_content["error"]
    assert held.is_error and "changed" in error["message"], error
    assert status["done"] == 0, status
