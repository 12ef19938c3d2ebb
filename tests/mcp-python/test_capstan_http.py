"""`capstan serve --http` as the official Python MCP SDK sees it: Streamable HTTP,
a bearer token, one router state per session, real Blender behind it."""

import asyncio
import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


@pytest.fixture
def http_server(capstan_bin, blender_home):
    proc = subprocess.Popen(
        [capstan_bin, "serve", "--http", "127.0.0.1:0"],
        env=dict(os.environ, CAPSTAN_HOME=blender_home),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    first, second = proc.stderr.readline(), proc.stderr.readline()
    assert "over Streamable HTTP at" in first, first + second
    url = first.split(" at ")[1].strip()
    token = second.strip().rsplit(": ", 1)[1]
    token_file = second.split(" in ", 1)[1].split(", mode")[0]
    yield url, token
    proc.terminate()
    assert proc.wait(timeout=30) == 0
    assert not os.path.exists(token_file)


def session(url, token, body):
    async def go():
        headers = {"Authorization": "Bearer %s" % token} if token else {}
        async with create_mcp_http_client(headers=headers) as http:
            async with streamable_http_client(url, http_client=http) as (read, write, *_):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    return await body(s)

    return asyncio.run(go())


def doc(result):
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def test_without_the_token_nothing_connects(http_server):
    url, _ = http_server

    async def body(s):
        return await s.list_tools()

    with pytest.raises(BaseException) as failure:
        session(url, "not-the-token", body)
    assert "error response" in repr(failure.value), repr(failure.value)
    # What the SDK saw underneath: 401, with the bearer challenge.
    request = urllib.request.Request(url, data=b"{}", method="POST", headers={"Authorization": "Bearer not-the-token"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401
    assert refused.value.headers["WWW-Authenticate"].startswith("Bearer")


def test_each_http_session_has_its_own_router_state(http_server):
    url, token = http_server

    async def both():
        headers = {"Authorization": "Bearer %s" % token}
        async with create_mcp_http_client(headers=headers) as ha, create_mcp_http_client(headers=headers) as hb:
            async with streamable_http_client(url, http_client=ha) as (ra, wa, *_), streamable_http_client(url, http_client=hb) as (rb, wb, *_):
                async with ClientSession(ra, wa) as a, ClientSession(rb, wb) as b:
                    await a.initialize()
                    await b.initialize()
                    tools = sorted(t.name for t in (await a.list_tools()).tools)
                    await a.call_tool("router_set_goal", {"goal": "add a cube"})
                    await b.call_tool("router_set_goal", {"goal": "render a png"})
                    created = await a.call_tool("execute_capability", {"key": "scene.create_object", "arguments": {"type": "cube", "name": "HttpCube"}})
                    status_a = doc(await a.call_tool("router_get_status", {}))
                    status_b = doc(await b.call_tool("router_get_status", {}))
                    return tools, created, status_a, status_b

    tools, created, status_a, status_b = asyncio.run(both())
    assert tools == ["execute_capability", "get_capability_schema", "router_get_status", "router_set_goal", "search_capabilities"]
    assert not created.is_error, created
    assert doc(created)["delta"]["added"] == ["HttpCube"]
    assert (status_a["goal"], status_a["family"]) == ("add a cube", "create")
    assert (status_b["goal"], status_b["family"]) == ("render a png", "render")
    assert [e["key"] for e in status_a["executions"]] == ["scene.create_object"]
    assert status_b["executions"] == []
