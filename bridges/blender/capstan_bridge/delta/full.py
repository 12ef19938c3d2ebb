"""The whole-scene snapshot: O(scene), for verification mode only.

`CAPSTAN_BRIDGE_VERIFY_DELTA=1` makes the bridge snapshot everything before and after
each mutating command and compare that delta with the one the command's tracker
reported; capstan's tests run with it on, so a command that forgets to report what it
touches fails its tests instead of misleading an agent. It also proves that read
commands change nothing.
"""

import bpy

from . import fingerprint, selection


def snapshot():
    return {
        "objects": {o.session_uid: (o.name, fingerprint.object_aspects(o)) for o in bpy.data.objects},
        "datablocks": {
            kind: {b.session_uid: (b.name, fingerprint.datablock_values(kind, b)) for b in getattr(bpy.data, kind)}
            for kind in fingerprint.DATABLOCKS
        },
        "settings": {d: fingerprint.settings_values(d) for d in fingerprint.SETTINGS},
    }


def diff(before, after):
    ob, oa = before["objects"], after["objects"]
    changed, fields, renamed = [], {}, {}
    for uid in set(ob) & set(oa):
        (name_b, asp_b), (name_a, asp_a) = ob[uid], oa[uid]
        aspects = sorted(k for k in asp_a if asp_a[k] != asp_b[k])
        if name_a != name_b:
            aspects = ["name"] + aspects
            renamed[name_a] = name_b
        if aspects:
            changed.append(name_a)
            fields[name_a] = aspects
    delta = {
        "added": sorted(oa[u][0] for u in set(oa) - set(ob)),
        "removed": sorted(ob[u][0] for u in set(ob) - set(oa)),
        "changed": sorted(changed),
        "settings": sorted(d for d in after["settings"] if after["settings"][d] != before["settings"][d]),
    }
    if fields:
        delta["fields"] = fields
    if renamed:
        delta["renamed"] = renamed
    blocks = {}
    for kind in fingerprint.DATABLOCKS:
        b, a = before["datablocks"][kind], after["datablocks"][kind]
        entry = {
            "added": sorted(a[u][0] for u in set(a) - set(b)),
            "removed": sorted(b[u][0] for u in set(b) - set(a)),
            "changed": sorted(a[u][0] for u in set(a) & set(b) if a[u] != b[u]),
        }
        if any(entry.values()):
            blocks[kind] = entry
    if blocks:
        delta["datablocks"] = blocks
    return delta


def mismatch(reported, actual):
    """The differences between a reported delta and the real one, as lines."""
    lines = []
    # The selection is reported by the commands that change it on purpose and is no part
    # of the snapshot (see selection.py), so it is left out of the comparison.
    reported = dict(reported, settings=[d for d in reported.get("settings", []) if d != selection.DOMAIN])
    for key in sorted(set(reported) | set(actual)):
        if key == "incomplete":
            continue
        if reported.get(key) != actual.get(key):
            lines.append("%s: reported %r, actually %r" % (key, reported.get(key), actual.get(key)))
    return lines
