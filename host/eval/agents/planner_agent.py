"""A reference agent for `capstan eval --agent ... --agent-surface planner`: it drives
`capstan serve --planner`. It sets the goal, asks for the plan, and acts each step in
order; a step that needs input (a required argument neither the goal nor the scene
gives) is not sent, since nobody here can answer.

Run: capstan eval --agent "python host/eval/agents/planner_agent.py" --agent-surface planner
It needs the official MCP SDK (`pip install mcp`)."""

import asyncio
import sys

from mcp_stdio import ClientSession, document, goal, say_error, server, stdio_client


async def main() -> int:
    text = goal()
    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            set_goal = await session.call_tool("planner_set_goal", {"goal": text[:2000]})
            if set_goal.is_error:
                print(f"planner_set_goal: {document(set_goal)}", file=sys.stderr)
                return 1
            plan = await session.call_tool("planner_plan", {})
            if plan.is_error:
                print(f"planner_plan: {document(plan)}", file=sys.stderr)
                return 1
            for step in document(plan).get("plan", []):
                if step.get("status") == "needs_input":
                    print(f"{step['step_id']} needs input: {step.get('missing')}", file=sys.stderr)
                    continue
                say_error(step["step_id"], await session.call_tool("planner_act", {"step_id": step["step_id"]}))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
