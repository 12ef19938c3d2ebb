"""What one mutating command touched, and the delta it makes.

Handlers call, before they change something:
    ctx.delta.touch(obj)                     # an object about to change
    ctx.delta.touch_data_users(obj)          # ... and every object sharing its data
    ctx.delta.removing(obj)                  # an object about to be removed
    ctx.delta.touch_datablock("materials", mat) / removing_datablock(kind, block)
    ctx.delta.touch_settings("render")       # a scene-level domain
    ctx.delta.touch_selection()              # the selection or the active object
and, after creating something:
    ctx.delta.created(obj) / created_datablock(kind, block)

`finish()` fingerprints what was touched again and returns the delta document. Its
cost is the size of what was touched: one object's aspects, one material's node tree.
"""

import bpy

from . import fingerprint, selection


class ReadOnly:
    """The tracker of a read command: touching anything is a bug in the command."""

    def __getattr__(self, name):
        def refuse(*args, **kwargs):
            raise RuntimeError("a read command may not change the scene (it called delta.%s)" % name)
        return refuse


def _alive(block):
    try:
        block.name
        return True
    except ReferenceError:
        return False


def _counts():
    return {"objects": len(bpy.data.objects), **{kind: len(getattr(bpy.data, kind)) for kind in fingerprint.DATABLOCKS}}


class Tracker:
    """What one mutating command touched, fingerprinted before and after.

    `count_nets`: also count every datablock list before and after, to flag a command
    that changed a count without reporting it (`unreported_counts`). `len()` of a
    `bpy.data` list walks it (25 us for 2,000 objects, three walks per command), so the
    nets cost what the scene holds: they run where correctness is checked (the bridge's
    verification mode, on in every test and in the conformance suite, beside the
    whole-scene comparison) and not on a user's every call.
    """

    def __init__(self, count_nets=False):
        self._objects = {}         # session_uid -> (object, name before, aspects before)
        self._created = {}         # session_uid -> object
        self._removed = {}         # session_uid -> name
        self._blocks = {}          # (kind, session_uid) -> (block, name before, values before)
        self._blocks_created = {}  # (kind, session_uid) -> block
        self._blocks_removed = {}  # (kind, session_uid) -> name
        self._settings = {}        # domain -> values before
        self._counts = _counts() if count_nets else None
        self._selection = None     # selection.state() before, once touch_selection() was called

    # -- objects ---------------------------------------------------------------------

    def touch(self, obj):
        uid = obj.session_uid
        if uid not in self._objects and uid not in self._created:
            self._objects[uid] = (obj, obj.name, fingerprint.object_aspects(obj))
        return obj

    def touch_data_users(self, obj):
        """Touch `obj` and, when its data is shared (linked duplicates), every other
        user of that data: a change to the data shows on all of them."""
        self.touch(obj)
        data = obj.data
        if data is not None and data.users > 1:
            for other in bpy.data.objects:
                if other.data == data:
                    self.touch(other)
        return obj

    def created(self, obj):
        self._created[obj.session_uid] = obj
        return obj

    def removing(self, obj):
        uid = obj.session_uid
        if uid in self._created:
            del self._created[uid]
        else:
            self._removed[uid] = self._objects.pop(uid, (None, obj.name, None))[1]

    # -- datablocks and settings -----------------------------------------------------

    def touch_datablock(self, kind, block):
        key = (kind, block.session_uid)
        if key not in self._blocks and key not in self._blocks_created:
            self._blocks[key] = (block, block.name, fingerprint.datablock_values(kind, block))
        return block

    def created_datablock(self, kind, block):
        self._blocks_created[(kind, block.session_uid)] = block
        return block

    def removing_datablock(self, kind, block):
        key = (kind, block.session_uid)
        if key in self._blocks_created:
            del self._blocks_created[key]
        else:
            self._blocks_removed[key] = self._blocks.pop(key, (None, block.name, None))[1]

    def animation_changed(self):
        """The objects whose keyframes (action, F-curves, drivers, NLA) this command
        changed so far, created ones with animation included (for `settle`)."""
        out = [obj for obj, _, before in self._objects.values() if _alive(obj) and fingerprint.animation_values(obj) != before["animation"]]
        out.extend(obj for obj in self._created.values() if _alive(obj) and obj.animation_data is not None)
        return out

    def touch_selection(self):
        """The command is about to change the selection or the active object."""
        if self._selection is None:
            self._selection = selection.state()

    def touch_settings(self, domain):
        if domain not in self._settings:
            self._settings[domain] = fingerprint.settings_values(domain)

    # -- the delta -------------------------------------------------------------------

    def finish(self):
        added = sorted(o.name for o in self._created.values() if _alive(o))
        removed = sorted(self._removed.values())
        changed, fields, renamed = [], {}, {}
        for obj, name_before, before in self._objects.values():
            if not _alive(obj):
                removed.append(name_before)
                continue
            after = fingerprint.object_aspects(obj)
            aspects = sorted(k for k in after if after[k] != before[k])
            if obj.name != name_before:
                aspects = ["name"] + aspects
                renamed[obj.name] = name_before
            if aspects:
                changed.append(obj.name)
                fields[obj.name] = aspects
        removed = sorted(set(removed))
        datablocks = self._datablocks()
        settings = [d for d, before in self._settings.items() if fingerprint.settings_values(d) != before]
        if self._selection is not None and selection.changed(self._selection, selection.state()):
            settings.append(selection.DOMAIN)
        settings = sorted(settings)
        delta = {"added": added, "removed": removed, "changed": sorted(changed), "settings": settings}
        if fields:
            delta["fields"] = fields
        if renamed:
            delta["renamed"] = renamed
        if datablocks:
            delta["datablocks"] = datablocks
        return delta

    def _datablocks(self):
        out = {}

        def entry(kind):
            return out.setdefault(kind, {"added": [], "removed": [], "changed": []})

        for (kind, _), block in self._blocks_created.items():
            if _alive(block):
                entry(kind)["added"].append(block.name)
        for (kind, _), name in self._blocks_removed.items():
            entry(kind)["removed"].append(name)
        for (kind, _), (block, name_before, before) in self._blocks.items():
            if not _alive(block):
                entry(kind)["removed"].append(name_before)
            elif block.name != name_before or fingerprint.datablock_values(kind, block) != before:
                entry(kind)["changed"].append(block.name)
        for lists in out.values():
            for key in lists:
                lists[key] = sorted(set(lists[key]))
        return {k: v for k, v in out.items() if any(v.values())}

    def unreported_counts(self, delta):
        """Collections whose size moved other than the delta says (a command that
        under-reports; [] without count nets). The bridge flags such a delta as
        `incomplete` rather than walking the scene to repair it."""
        if self._counts is None:
            return []
        now = _counts()
        out = []
        objects_moved = now["objects"] - self._counts["objects"]
        if objects_moved != len(delta["added"]) - len(delta["removed"]):
            out.append("objects")
        blocks = delta.get("datablocks", {})
        for kind in fingerprint.DATABLOCKS:
            reported = blocks.get(kind, {})
            if now[kind] - self._counts[kind] != len(reported.get("added", [])) - len(reported.get("removed", [])):
                out.append(kind)
        return out
