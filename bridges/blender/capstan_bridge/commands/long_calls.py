"""What the host needs around a long call (a render, a bake): its progress from inside
Blender, and a checkpoint of the scene to restore after a cancel.

Progress: Blender calls its render handlers while `bpy.ops.render.render` holds the main
thread (`render_stats` mostly from Cycles' own thread), so the handlers below only note
what they hear in a small dict under a lock, and `render_progress` answers it on the
request's own thread (`concurrent`: the main thread is busy rendering). Neither touches
the scene.

Checkpoint: Blender cannot be interrupted inside a render from Python (headless Cycles
checks its break flag only between batches of about 30 s, and the flag is not reachable
from Python on every supported version), so capstan cancels a long call of an instance
it launched by ending the process and starting it again in the same instance. Before such
a call the host asks for `checkpoint_scene`: a copy of the scene into the instance's
private folder (`CAPSTAN_BRIDGE_CHECKPOINT`, set by the launching capstan, inside the
instance's `tmp/`, the one folder besides `output/` the kernel lets Blender write), which
`run_bridge.py` opens (scripts off, after exec is forbidden) when the instance starts
again. After a restore the session's file is that copy (`bpy.data.filepath` names it; its
`//` paths were rewritten to still find the same files); saving the work is `io.save` as
ever, and the copy goes when the instance stops.
"""

import atexit
import os
import re
import threading
import time

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError

CHECKPOINT_ENV = "CAPSTAN_BRIDGE_CHECKPOINT"

_LOCK = threading.Lock()
_STATE = {}
_SAMPLES = (re.compile(r"Sample (\d+)/(\d+)"), re.compile(r"Rendering (\d+) / (\d+) samples"))
STATS_CHARS = 200


def _reset(kind):
    _STATE.clear()
    _STATE.update(active=True, kind=kind, started=time.monotonic(), frame=None, frames_done=0, sample=None, samples=None, stats="")


@bpy.app.handlers.persistent
def _on_render_init(*_):
    with _LOCK:
        _reset("render")


@bpy.app.handlers.persistent
def _on_render_pre(sc, *_):
    with _LOCK:
        if not _STATE.get("active"):
            _reset("render")
        _STATE.update(frame=int(getattr(sc, "frame_current", 0)), sample=None)


@bpy.app.handlers.persistent
def _on_render_post(*_):
    with _LOCK:
        _STATE["frames_done"] = _STATE.get("frames_done", 0) + 1


@bpy.app.handlers.persistent
def _on_render_stats(stats, *_):
    text = str(stats)[:STATS_CHARS]
    with _LOCK:
        _STATE["stats"] = text
        for pattern in _SAMPLES:
            found = pattern.search(text)
            if found:
                _STATE.update(sample=int(found.group(1)), samples=int(found.group(2)))
                break


@bpy.app.handlers.persistent
def _on_bake_pre(*_):
    with _LOCK:
        _reset("bake")


@bpy.app.handlers.persistent
def _on_done(*_):
    with _LOCK:
        if _STATE.get("active"):
            _STATE["active"] = False
            _STATE["seconds"] = round(time.monotonic() - _STATE["started"], 3)


_HANDLERS = (
    ("render_init", _on_render_init), ("render_pre", _on_render_pre), ("render_post", _on_render_post),
    ("render_stats", _on_render_stats), ("render_complete", _on_done), ("render_cancel", _on_done),
    ("object_bake_pre", _on_bake_pre), ("object_bake_complete", _on_done), ("object_bake_cancel", _on_done),
)


def _ours(handlers, handler):
    return [h for h in handlers if getattr(h, "__qualname__", None) == handler.__qualname__ and getattr(h, "__module__", None) == handler.__module__]


def remove_handlers():
    """Take the handlers out again. Registered to run at exit: bpy 4.5 as a module
    hangs at interpreter exit while any Python handler is still registered (measured:
    one empty `render_init` handler is enough)."""
    for name, handler in _HANDLERS:
        handlers = getattr(bpy.app.handlers, name, None)
        for old in _ours(handlers, handler) if handlers is not None else ():
            handlers.remove(old)


def install_handlers():
    """Add the handlers once (a reloaded add-on replaces its own, never doubles them)."""
    remove_handlers()
    for name, handler in _HANDLERS:
        handlers = getattr(bpy.app.handlers, name, None)
        if handlers is not None:
            handlers.append(handler)


install_handlers()
atexit.register(remove_handlers)


def snapshot():
    with _LOCK:
        state = dict(_STATE)
    if not state:
        return {"active": False, "kind": None, "seconds": None, "frame": None, "frames_done": 0, "sample": None, "samples": None, "stats": ""}
    if state["active"]:
        state["seconds"] = round(time.monotonic() - state["started"], 3)
    state.pop("started", None)
    return state


@command(
    effect="read",
    host_only=True,
    concurrent=True,
    summary="The progress of the render or bake running now (or the last one): frame, samples, seconds, Blender's own stats line.",
    params=s.obj({}),
    result=s.obj({
        "active": s.boolean(description="A render or bake is running now"),
        "kind": s.nullable(s.string(description="render or bake")),
        "seconds": s.nullable(s.number(0, description="Seconds since it started (to its end, when it is done)")),
        "frame": s.nullable(s.integer(description="The frame being rendered")),
        "frames_done": s.integer(0),
        "sample": s.nullable(s.integer(0)),
        "samples": s.nullable(s.integer(0)),
        "stats": s.string(0, STATS_CHARS, description="Blender's last render stats line"),
    }, required=("active", "kind", "seconds", "frame", "frames_done", "sample", "samples", "stats")),
    timeout_s=5,
)
def render_progress(ctx, params):
    return snapshot()


@command(
    effect="write",
    host_only=True,
    summary="Save a copy of the scene as the instance's checkpoint, which a relaunch after a cancelled long call opens.",
    params=s.obj({}),
    result=s.obj({"bytes": s.integer(1)}, required=("bytes",)),
    errors=("unsupported",),
    timeout_s=120,
)
def checkpoint_scene(ctx, params):
    path = os.environ.get(CHECKPOINT_ENV)
    if not path:
        raise CommandError("unsupported", "this Blender was not launched by capstan into an instance: it has no checkpoint file")
    saving = path + ".saving.blend"
    try:
        # relative_remap: `//` paths are rewritten so they still find the same files from
        # the checkpoint's folder (a restored scene renders what this one does).
        result = bpy.ops.wm.save_as_mainfile(filepath=saving, copy=True, check_existing=False, relative_remap=True, compress=False)
        if "FINISHED" not in result:
            raise CommandError("blender_error", "Blender did not save the checkpoint (%s)" % ", ".join(sorted(result)))
        # Whole or not at all: a relaunch never opens half a file.
        os.replace(saving, path)
    finally:
        if os.path.exists(saving):
            os.remove(saving)
    return {"bytes": os.path.getsize(path)}


def restore_checkpoint():
    """At start (run_bridge.py, before the bridge serves): open the instance's checkpoint
    when a relaunch left one. Returns its path, or None."""
    path = os.environ.get(CHECKPOINT_ENV)
    if not path or not os.path.isfile(path):
        return None
    # The file is the app's own copy in its private folder; its scripts stay off anyway.
    bpy.ops.wm.open_mainfile(filepath=path, load_ui=False, use_scripts=False)
    return path
