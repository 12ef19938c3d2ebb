from __future__ import annotations

import bpy
from typing import NamedTuple


class Issue(NamedTuple):
    obj: str
    problem: str


def find_issues(objects) -> list[Issue]:
    found: list[Issue] = []
    for o in objects:
        if o.type == 'MESH' and not o.data.materials:
            found.append(Issue(o.name, "no material"))
        if any(abs(s) < 1e-6 for s in o.scale):
            found.append(Issue(o.name, "zero scale"))
    return found


issues = find_issues(bpy.data.objects)
first = issues[0]._replace(problem="checked") if issues else None
print(Issue._fields, first)
result = {"issues": [i._asdict() for i in issues], "count": len(issues)}
