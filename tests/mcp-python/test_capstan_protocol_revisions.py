"""Both protocol revisions in one run, each through the official Python MCP SDK, over
stdio (`capstan serve`) and over Streamable HTTP (`capstan serve --http`), with one real
headless Blender behind every server:

- a 2026-07-28 client in its stateless mode (`mode="auto"`: it sends `server/discover`,
  adopts the answer and never sends `initialize`; every request carries the version in
  its `_meta`, and over HTTP in the `MCP-Protocol-Version` header, with no session id);
- a 2025-11-25 client (`mode="legacy"`: the `initialize` handshake).

Each lists the five guided tools, searches, reads a schema, creates a cube of its own
name through `execute_capability` and reads it back from Blender (`scene.object_info`,
`scene.info`); each then sees the other's cube too: one Blender, two revisions."""

import asyncio
import json
import os
import subprocess
import urllib.error
import urllib.request
import uuid
from contextlib import asynccontextmanager

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from test_capstan_mcp import doc

MODERN, LEGACY = "2026-07-28", "2025-11-25"
GUIDED = ["execute_capability", "get_capability_schema", "router_get_status", "router_set_goal", "search_capabilities"]
META_VERSION = "io.modelcontextprotocol/protocolVersion"


class Tap:
    """The client's write stream, noting every JSON-RPC message the SDK puts on the wire."""

    def __init__(self, inner, sent):
        self.inner, self.sent = inner, sent

    async def send(self, item):
        self.sent.append(item.message)
        await self.inner.send(item)

    async def __aenter__(self):
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc):
        return await self.inner.__aexit__(*exc)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@asynccontextmanager
async def tapped(transport, sent):
    async with transport as (read, write):
        yield read, Tap(write, sent)


@asynccontextmanager
async def http_transport(url, token, exchanges):
    """Streamable HTTP with the bearer token; each request's and answer's MCP headers noted."""

    async def on_request(request):
        exchanges.append(("request", request.method, {k.lower(): v for k, v in request.headers.items() if k.lower().startswith("mcp-")}))

    async def on_response(response):
        exchanges.append(("response", response.status_code, {k.lower(): v for k, v in response.headers.items() if k.lower().startswith("mcp-")}))

    async with create_mcp_http_client(headers={"Authorization": "Bearer %s" % token}) as http:
        http.event_hooks = {"request": [on_request], "response": [on_response]}
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


@pytest.fixture(scope="module")
def http_server(capstan_bin, blender_home):
    """`capstan serve --http` on a free loopback port. It loads every pack before it
    prints its address, so the home's compiled components are warm from here on."""
    proc = subprocess.Popen(
        [capstan_bin, "serve", "--http", "127.0.0.1:0"],
        env=dict(os.environ, CAPSTAN_HOME=blender_home),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    first, second = proc.stderr.readline(), proc.stderr.readline()
    assert "over Streamable HTTP at" in first, first + second
    url = first.split(" at ")[1].strip()
    token = second.strip().rsplit(": ", 1)[1]
    yield url, token
    proc.terminate()
    assert proc.wait(timeout=30) == 0


@pytest.fixture(scope="module")
def stdio_server(capstan_bin, blender_home, http_server):
    """`capstan serve` on stdio. After `http_server`: a first start in a cold home
    compiles the packs' components (about 15 s in a debug build), longer than the SDK
    waits for a `server/discover` answer (10 s) before it falls back to `initialize`."""
    return StdioServerParameters(command=capstan_bin, args=["serve"], env=dict(os.environ, CAPSTAN_HOME=blender_home))


async def guided_session(client, name):
    """The guided flow against real Blender: what each step answered."""
    tools = sorted(t.name for t in (await client.list_tools()).tools)
    routed = doc(await client.call_tool("router_set_goal", {"goal": "add a cube"}))
    found = doc(await client.call_tool("search_capabilities", {"query": "add a cube"}))
    schema = doc(await client.call_tool("get_capability_schema", {"key": found["results"][0]["key"]}))
    created = await client.call_tool("execute_capability", {"key": schema["key"], "arguments": {"type": "cube", "name": name, "location": [0, 0, 3]}})
    info = await client.call_tool("execute_capability", {"key": "scene.object_info", "arguments": {"name": name}})
    scene = await client.call_tool("execute_capability", {"key": "scene.info", "arguments": {}})
    return {"tools": tools, "routed": routed, "found": found, "schema": schema, "created": created, "info": info, "scene": scene}


def check_guided(answers, name):
    assert answers["tools"] == GUIDED, answers["tools"]
    assert answers["routed"]["family"] == "create", answers["routed"]
    assert answers["found"]["results"][0]["key"] == "scene.create_object", answers["found"]
    assert answers["schema"]["key"] == "scene.create_object", answers["schema"]
    assert "properties" in json.dumps(answers["schema"]), answers["schema"]
    created, info, scene = answers["created"], answers["info"], answers["scene"]
    assert not created.is_error, created
    assert doc(created)["delta"]["added"] == [name], doc(created)
    assert not info.is_error, info
    assert doc(info)["result"]["name"] == name, doc(info)
    assert doc(info)["result"]["location"] == [0.0, 0.0, 3.0], doc(info)
    assert not scene.is_error, scene
    return scene_names(doc(scene)["result"])


def scene_names(result):
    """Every object name `scene.info` reports."""
    objects = result.get("objects", [])
    return {o["name"] if isinstance(o, dict) else o for o in objects}


def requests_sent(sent):
    return [m for m in sent if hasattr(m, "method")]


def run_both(transport_for):
    """A 2026-07-28 client, then a 2025-11-25 client, on fresh transports from
    `transport_for(sent)`; each creates its own cube, then the first looks again."""
    modern_name, legacy_name = "Modern" + uuid.uuid4().hex[:6], "Legacy" + uuid.uuid4().hex[:6]
    modern_sent, legacy_sent = [], []

    async def go():
        async with Client(tapped(transport_for(modern_sent), modern_sent), mode="auto") as modern:
            modern_view = (modern.protocol_version, modern.session.discover_result, modern.session.initialize_result)
            modern_answers = await guided_session(modern, modern_name)
            async with Client(tapped(transport_for(legacy_sent), legacy_sent), mode="legacy") as legacy:
                legacy_view = (legacy.protocol_version, legacy.session.discover_result, legacy.session.initialize_result)
                legacy_answers = await guided_session(legacy, legacy_name)
            # The stateless client, after the handshake client's cube: the same Blender.
            again = await modern.call_tool("execute_capability", {"key": "scene.object_info", "arguments": {"name": legacy_name}})
        return modern_view, modern_answers, legacy_view, legacy_answers, again

    modern_view, modern_answers, legacy_view, legacy_answers, again = asyncio.run(go())

    version, discovered, initialized = modern_view
    assert version == MODERN, version
    assert initialized is None, initialized
    assert discovered is not None and MODERN in discovered.supported_versions, discovered
    assert LEGACY in discovered.supported_versions, discovered.supported_versions
    assert discovered.capabilities.tools is not None, discovered.capabilities
    methods = [m.method for m in requests_sent(modern_sent)]
    assert methods[0] == "server/discover", methods
    assert "initialize" not in methods and "notifications/initialized" not in methods, methods
    for message in requests_sent(modern_sent):
        assert (message.params or {}).get("_meta", {}).get(META_VERSION) == MODERN, message
    modern_scene = check_guided(modern_answers, modern_name)
    assert modern_name in modern_scene, modern_scene

    version, discovered, initialized = legacy_view
    assert version == LEGACY, version
    assert discovered is None, discovered
    assert initialized is not None and initialized.protocol_version == LEGACY, initialized
    assert initialized.server_info.name == "capstan", initialized.server_info
    methods = [m.method for m in requests_sent(legacy_sent)]
    assert methods[:2] == ["initialize", "notifications/initialized"], methods
    assert "server/discover" not in methods, methods
    for message in requests_sent(legacy_sent)[1:]:
        assert META_VERSION not in (message.params or {}).get("_meta", {}), message
    legacy_scene = check_guided(legacy_answers, legacy_name)
    assert {modern_name, legacy_name} <= legacy_scene, legacy_scene

    assert not again.is_error and doc(again)["result"]["name"] == legacy_name, again
    return modern_sent, legacy_sent


def test_over_stdio_a_stateless_2026_07_28_client_and_a_2025_11_25_client(stdio_server):
    run_both(lambda sent: stdio_client(stdio_server))


def test_over_http_a_stateless_2026_07_28_client_and_a_2025_11_25_client(http_server):
    url, token = http_server
    exchanges = {}

    def transport_for(sent):
        exchanges[id(sent)] = []
        return http_transport(url, token, exchanges[id(sent)])

    modern_sent, legacy_sent = run_both(transport_for)
    modern, legacy = exchanges[id(modern_sent)], exchanges[id(legacy_sent)]

    # Stateless: no session id either way; every POST names the revision and its method.
    posts = [headers for kind, method, headers in modern if kind == "request"]
    assert [method for kind, method, _ in modern if kind == "request"] == ["POST"] * len(posts), modern
    assert all(h.get("mcp-protocol-version") == MODERN and h.get("mcp-method") for h in posts), posts
    assert not any("mcp-session-id" in headers for _, _, headers in modern), modern
    assert all(status == 200 for kind, status, _ in modern if kind == "response"), modern

    # The handshake client: a session id from the answer to initialize, then on every request.
    answers = [headers for kind, _, headers in legacy if kind == "response"]
    session = answers[0].get("mcp-session-id")
    assert session, legacy
    later = [headers for kind, _, headers in legacy if kind == "request"][1:]
    assert later and all(h.get("mcp-session-id") == session and h.get("mcp-protocol-version") == LEGACY for h in later), later


def test_over_http_a_bare_2026_07_28_request_is_answered_without_a_session(http_server):
    """By hand, once: one POST, no initialize before it, no session id after it."""
    url, token = http_server
    meta = {META_VERSION: MODERN, "io.modelcontextprotocol/clientInfo": {"name": "by-hand", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    body = {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"_meta": meta}}
    headers = {"Authorization": "Bearer %s" % token, "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
        assert answer.headers.get("Mcp-Session-Id") is None, dict(answer.headers)
        text = answer.read().decode()
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    message = json.loads(data[-1] if data else text)
    assert message["id"] == 7 and sorted(t["name"] for t in message["result"]["tools"]) == GUIDED, message
    # The header and the body must agree on the revision.
    mismatched = dict(headers, **{"MCP-Protocol-Version": LEGACY})
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=mismatched)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400, refused.value


def test_over_http_the_session_cap_never_refuses_a_stateless_client(capstan_bin, blender_home, http_server):
    """`--max-sessions 1` with one 2025-11-25 session open: a second handshake is refused
    (503), a 2026-07-28 client, which opens no session, is served."""
    proc = subprocess.Popen(
        [capstan_bin, "serve", "--http", "127.0.0.1:0", "--max-sessions", "1"],
        env=dict(os.environ, CAPSTAN_HOME=blender_home),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        first, second = proc.stderr.readline(), proc.stderr.readline()
        assert "over Streamable HTTP at" in first, first + second
        url, token = first.split(" at ")[1].strip(), second.strip().rsplit(": ", 1)[1]

        async def go():
            async with Client(http_transport(url, token, []), mode="legacy") as held:
                assert held.protocol_version == LEGACY
                refused = []
                try:
                    async with Client(http_transport(url, token, refused), mode="legacy"):
                        pass
                except BaseException:  # the SDK's own error for a 503 on initialize
                    pass
                async with Client(http_transport(url, token, []), mode="auto") as modern:
                    tools = sorted(t.name for t in (await modern.list_tools()).tools)
                    info = await modern.call_tool("execute_capability", {"key": "scene.info", "arguments": {}})
                    return refused, modern.protocol_version, modern.session.discover_result, tools, info

        refused, version, discovered, tools, info = asyncio.run(go())
        assert ("response", 503, {}) in refused, refused
        assert version == MODERN and discovered is not None, (version, discovered)
        assert tools == GUIDED, tools
        assert not info.is_error and isinstance(doc(info)["result"].get("objects"), list), info
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
