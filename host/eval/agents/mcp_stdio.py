"""What both reference agents share: the MCP server `capstan eval --agent` names.

`CAPSTAN_MCP_COMMAND` is a JSON array (program, then arguments): the stdio MCP server
to spawn. It is started with this process's environment (CAPSTAN_HOME included), so
it reaches the app instance the suite runs in."""

import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def goal() -> str:
    """The goal: the last argument, or CAPSTAN_GOAL."""
    text = sys.argv[-1] if len(sys.argv) > 1 else os.environ.get("CAPSTAN_GOAL", "")
    if not text.strip():
        sys.exit("no goal: give it as the last argument or in CAPSTAN_GOAL")
    return text


def server() -> StdioServerParameters:
    raw = os.environ.get("CAPSTAN_MCP_COMMAND")
    if not raw:
        sys.exit("CAPSTAN_MCP_COMMAND is not set: run me through `capstan eval --agent`")
    command = json.loads(raw)
    return StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))


def document(result) -> dict:
    """A tool answer's JSON document (its structured content, else its first text)."""
    if result.structured_content is not None:
        return result.structured_content
    for block in result.content:
        if getattr(block, "type", None) == "text":
            try:
                return json.loads(block.text)
            except ValueError:
                break
    return {}


def say_error(label: str, answer) -> None:
    """Tell stderr what an error answer said (capstan keeps the end of it in the report)."""
    if answer.is_error:
        error = document(answer).get("error", {})
        print(f"{label}: {error.get('code')}: {error.get('message', '')[:200]}", file=sys.stderr)


__all__ = ["ClientSession", "stdio_client", "goal", "server", "document", "say_error"]
