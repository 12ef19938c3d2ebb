"""The delta of a mutating command, from snapshots of the document before and after.

FreeCAD documents are small (tens of objects, not a scene of thousands), so every
mutating command is measured whole: a fingerprint of each object before and after,
compared. What a fingerprint holds, per object (named by its `Name`): its type and
label, visibility, placement, and its shape's summary (volume, area, bounding box,
counts of solids, faces and edges), rounded so that recomputing the same thing is no
change. The answer has the shape of the catalog's `$defs/delta`: `added`, `removed`,
`changed` (with `fields`: which aspects), `settings` (always empty here).
"""

ROUND = 6


def _shape_summary(obj):
    shape = getattr(obj, "Shape", None)
    if shape is None or shape.isNull():
        return None
    box = shape.BoundBox
    return (round(shape.Volume, ROUND), round(shape.Area, ROUND),
            tuple(round(v, ROUND) for v in (box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax)),
            len(shape.Solids), len(shape.Faces), len(shape.Edges))


def _placement(obj):
    placement = getattr(obj, "Placement", None)
    if placement is None:
        return None
    return (tuple(round(v, ROUND) for v in placement.Base), tuple(round(v, ROUND) for v in placement.Rotation.Q))


def fingerprint(obj):
    return {
        "type": obj.TypeId,
        "label": obj.Label,
        "visibility": bool(getattr(obj, "Visibility", True)),
        "placement": _placement(obj),
        "shape": _shape_summary(obj),
    }


def snapshot(doc):
    return {obj.Name: fingerprint(obj) for obj in doc.Objects}


def diff(before, after):
    added = sorted(n for n in after if n not in before)
    removed = sorted(n for n in before if n not in after)
    fields = {}
    for name in sorted(set(before) & set(after)):
        aspects = sorted(k for k in after[name] if after[name][k] != before[name].get(k))
        if aspects:
            fields[name] = aspects
    delta = {"added": added, "removed": removed, "changed": sorted(fields), "settings": []}
    if fields:
        delta["fields"] = fields
    return delta


def changed_anything(delta):
    return bool(delta["added"] or delta["removed"] or delta["changed"])
