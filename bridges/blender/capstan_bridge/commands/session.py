"""The bridge session: factory reset (for conformance tests), undo steps, hashed scene
snapshots."""

import hashlib
import time

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, not_found

MAX_SNAPSHOTS = 16
SNAPSHOT_ID = s.string(1, 32, pattern=r"^[A-Za-z0-9_.-]+$")


@command(
    effect="destroy",
    summary="Replace the open file with Blender's factory startup scene (capstan's conformance suite resets between cases).",
    params=s.obj({}),
    result=s.obj({"objects": s.array(s.string())}, required=("objects",)),
    host_only=True,
    full_delta=True,
)
def reset_scene(ctx, params):
    # The factory startup file, not the user's: every reset gives the same scene.
    bpy.ops.wm.read_homefile(use_factory_startup=True)
    ctx.session.snapshots.clear()
    return {"objects": sorted(o.name for o in bpy.data.objects)}


@command(
    effect="read",
    summary="Close one capability call's changes into one undo step named after it (GUI Blender; headless only with CAPSTAN_BRIDGE_UNDO=1).",
    params=s.obj({"label": s.string(1, 128)}, required=("label",)),
    result=s.obj({"pushed": s.boolean(), "label": s.string()}, required=("pushed", "label")),
    host_only=True,
)
def undo_push(ctx, params):
    # Changes only the undo history, never scene data: a read as far as deltas go.
    if not ctx.session.undo:
        return {"pushed": False, "label": params["label"]}
    bpy.ops.ed.undo_push(message=params["label"])
    return {"pushed": True, "label": params["label"]}


def _hashed():
    from ..delta import full

    snap = full.snapshot()

    def h(value):
        return hashlib.blake2b(repr(value).encode("utf-8"), digest_size=8).hexdigest()

    return {
        "objects": {uid: (name, {k: h(v) for k, v in aspects.items()}) for uid, (name, aspects) in snap["objects"].items()},
        "datablocks": {kind: {uid: (name, h(v)) for uid, (name, v) in blocks.items()} for kind, blocks in snap["datablocks"].items()},
        "settings": {d: h(v) for d, v in snap["settings"].items()},
    }


def _digest(hashed):
    return hashlib.sha256(repr(sorted((k, repr(v)) for k, v in hashed.items())).encode("utf-8")).hexdigest()


@command(
    effect="read",
    summary="Save, list, diff or drop hashed scene snapshots kept by the bridge (at most 16; the oldest goes first).",
    params=s.needs_by_value(s.obj({
        "action": s.enum(("save", "list", "diff", "drop")),
        "id": SNAPSHOT_ID,
        "a": SNAPSHOT_ID,
        "b": SNAPSHOT_ID,
    }, required=("action",)), "action", {"diff": ("a",), "drop": ("id",)}),
    result=s.obj({
        "action": s.string(),
        "id": s.string(),
        "digest": s.string(),
        "objects": s.integer(0),
        "evicted": s.nullable(s.string()),
        "snapshots": s.array(s.obj({"id": s.string(), "created": s.number(), "objects": s.integer(0), "digest": s.string()},
                                   required=("id", "created", "objects", "digest")), max_items=MAX_SNAPSHOTS),
        "a": s.string(),
        "b": s.string(),
        "same": s.boolean(),
        "diff": s.ref("delta"),
        "dropped": s.string(),
    }, required=("action",)),
    errors=("not_found", "invalid_params"),
    max_result_bytes=1024 * 1024,
)
def scene_snapshot(ctx, params):
    store = ctx.session.snapshots
    action = params["action"]
    if action == "save":
        sid = params.get("id") or "s%d" % (max([0] + [int(k[1:]) for k in store if k[1:].isdigit()]) + 1)
        evicted = None
        if sid not in store and len(store) >= MAX_SNAPSHOTS:
            evicted = min(store, key=lambda k: store[k]["created"])
            del store[evicted]
        hashed = _hashed()
        store[sid] = {"created": time.time(), "hashed": hashed, "digest": _digest(hashed)}
        return {"action": action, "id": sid, "digest": store[sid]["digest"], "objects": len(hashed["objects"]), "evicted": evicted}
    if action == "list":
        return {"action": action, "snapshots": [
            {"id": k, "created": round(v["created"], 3), "objects": len(v["hashed"]["objects"]), "digest": v["digest"]}
            for k, v in sorted(store.items(), key=lambda kv: kv[1]["created"])]}
    if action == "drop":
        if "id" not in params:
            raise CommandError("invalid_params", "drop needs the id of a snapshot")
        if store.pop(params["id"], None) is None:
            raise not_found("snapshot", params["id"])
        return {"action": action, "dropped": params["id"]}
    a = params.get("a")
    if a is None:
        raise CommandError("invalid_params", "diff needs a (a snapshot id) and optionally b (default: the scene now)")
    if a not in store:
        raise not_found("snapshot", a)
    b = params.get("b")
    if b is not None and b not in store:
        raise not_found("snapshot", b)
    before = store[a]["hashed"]
    after = store[b]["hashed"] if b is not None else _hashed()
    from ..delta import full

    diff = full.diff(before, after)
    same = not any(diff[k] for k in ("added", "removed", "changed", "settings")) and not diff.get("datablocks")
    return {"action": action, "a": a, "b": b or "now", "same": same, "diff": diff}
