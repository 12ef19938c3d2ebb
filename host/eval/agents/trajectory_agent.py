"""A reference agent for `capstan eval --agent ... --give-trajectory`: it follows the
task's trajectory through the guided tools, as a careful agent would. It sets the goal
(router_set_goal), searches once with the goal's words (search_capabilities), reads
each capability's schema before its first use (get_capability_schema), then runs each
call (execute_capability). A refused or failed call does not stop it, as in capstan's
own trajectory runs; the next call is made.

Run: capstan eval --agent "python host/eval/agents/trajectory_agent.py" --give-trajectory
It needs the official MCP SDK (`pip install mcp`)."""

import asyncio
import json
import os
import sys

from mcp_stdio import ClientSession, goal, say_error, server, stdio_client


async def main() -> int:
    path = os.environ.get("CAPSTAN_EVAL_TRAJECTORY")
    if not path:
        sys.exit("no trajectory: run with `capstan eval --give-trajectory`")
    with open(path, encoding="utf-8") as f:
        calls = json.load(f)
    text = goal()
    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("router_set_goal", {"goal": text[:2000]})
            await session.call_tool("search_capabilities", {"query": text[:500]})
            read_schema = set()
            for call in calls:
                key = call["key"]
                if key not in read_schema:
                    read_schema.add(key)
                    await session.call_tool("get_capability_schema", {"key": key})
                say_error(key, await session.call_tool("execute_capability", {"key": key, "arguments": call.get("args", {})}))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
