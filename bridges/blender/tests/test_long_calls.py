"""Around a long call: its progress answered beside the render (the main thread busy
with it), and the checkpoint a cancelled call's relaunch opens."""

import json
import os
import threading
import time
import urllib.request

import bpy

from capstan_bridge.commands import long_calls


def _post(client, command, params=None):
    body = json.dumps({"id": "lc-%s-%f" % (command, time.time()), "command": command, "params": params or {}}).encode()
    req = urllib.request.Request(client.base + "/bridge", data=body, method="POST")
    req.add_header("Authorization", "Bearer %s" % client.bridge.token)
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def test_progress_is_answered_while_the_render_holds_the_main_thread(client):
    client.ok("reset_scene")
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = 64
    sc.cycles.use_denoising = False
    sc.render.resolution_x, sc.render.resolution_y, sc.render.resolution_percentage = 320, 180, 100
    rendered, seen = {}, []

    def render():
        rendered["doc"] = _post(client, "render_image", {"filename": "long_call_progress"})

    def watch():
        while "doc" not in rendered:
            seen.append(_post(client, "render_progress"))
            time.sleep(0.05)

    threads = [threading.Thread(target=render), threading.Thread(target=watch)]
    for t in threads:
        t.start()
    # The main thread: the bridge's loop, which runs the render.
    while threads[0].is_alive():
        client.bridge.queue.drain(wait=0.01)
    for t in threads:
        t.join(30)
    assert rendered["doc"]["ok"], rendered
    during = [d["result"] for d in seen if d["ok"] and d["result"]["active"]]
    assert during, "render_progress answered while the render ran: %r" % seen[:3]
    assert all(p["kind"] == "render" and p["frame"] == sc.frame_current for p in during), during[-1]
    seconds = [p["seconds"] for p in during]
    assert seconds == sorted(seconds) and seconds[-1] > seconds[0], "the seconds move within the render: %r" % seconds
    after = client.ok("render_progress")
    assert not after["active"] and after["seconds"] >= seconds[-1], after


def test_a_checkpoint_is_what_a_relaunch_opens(client, tmp_path, monkeypatch):
    client.ok("reset_scene")
    assert client.call("checkpoint_scene")["error"]["code"] == "unsupported", "no checkpoint file outside a launched instance"
    path = tmp_path / "checkpoint.blend"
    monkeypatch.setenv(long_calls.CHECKPOINT_ENV, str(path))
    client.ok("create_object", type="monkey", name="BeforeTheRender")
    saved = client.ok("checkpoint_scene")
    assert saved["bytes"] == os.path.getsize(path) > 0
    assert not [p for p in os.listdir(tmp_path) if p != "checkpoint.blend"], "no partial file stays"
    assert bpy.data.filepath == "", "a copy: the session's own file is unchanged"
    client.ok("delete_object", name="BeforeTheRender")
    assert long_calls.restore_checkpoint() == str(path)
    assert "BeforeTheRender" in bpy.data.objects
    client.ok("reset_scene")
    assert bpy.data.filepath == ""
