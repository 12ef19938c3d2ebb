"""The scene's file references, read back and detached: the same list the check before
a load or a render uses (`file_refs.file_references`, judged by `file_refs_check`).

Each listed reference also says how its path is stored (`relative`: a `//` path or any
other path that is not absolute), whether its resolved target lies in a read root (the
output folder is one), and whether that target exists. Existence is looked up only
inside the read roots: capstan reads nothing outside them, so whether a file exists
there is not its to say (`exists` is null), as `paths.readable` refuses an outside path
before it looks at the disk."""

import os

from .. import file_refs
from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command

MAX_LIMIT = 500

LISTED = dict(refs_check.REFERENCE, properties=dict(
    refs_check.REFERENCE["properties"],
    relative=s.nullable(s.boolean(description="The stored path is relative (// is the folder of the .blend); null without a path")),
    inside_read_roots=s.nullable(s.boolean(description="The resolved target lies in a read root (the output folder is one); null when it cannot be resolved")),
    exists=s.nullable(s.boolean(description="The resolved target exists; null when it is outside the read roots or cannot be resolved (capstan does not look there)")),
), required=refs_check.REFERENCE["required"] + ["relative", "inside_read_roots", "exists"])


def listed_dict(ref, problem, roots):
    """The row of `list_file_references`: the reference, its problem, and how its path
    is stored, where it points and whether that exists (looked up inside `roots` only)."""
    row = refs_check.reference_dict(ref, problem)
    path = ref.path.replace("\\", "/")
    row["relative"] = (path.startswith("//") or not os.path.isabs(path)) if path else None
    inside = any(paths.inside(ref.absolute, root) for root in roots) if ref.absolute else None
    row["inside_read_roots"] = inside
    row["exists"] = os.path.exists(ref.absolute) if inside else None
    return row


@command(
    effect="read",
    summary="List every file the open scene refers to (images, libraries, caches, import nodes, File Output nodes, render output, ...), resolved, with why capstan would refuse it.",
    params=s.obj({
        "kind": s.enum(file_refs.KINDS),
        "kinds": s.array(s.enum(file_refs.KINDS), min_items=1, max_items=len(file_refs.KINDS),
                         description="Only references of these kinds"),
        "refused_only": s.boolean(description="Only the references capstan refuses (default false)"),
        "offset": s.integer(0, 1000000),
        "limit": s.integer(1, MAX_LIMIT, description="Default 100"),
    }),
    result=s.obj({
        "references": s.array(LISTED, max_items=MAX_LIMIT),
        "total": s.integer(0), "refused": s.integer(0, description="How many of all references capstan refuses"),
        "offset": s.integer(0), "limit": s.integer(1),
        "output_folder": s.string(), "read_roots": s.array(s.string()),
    }, required=("references", "total", "refused", "offset", "limit", "output_folder", "read_roots")),
)
def list_file_references(ctx, params):
    refs = file_refs.file_references()
    judged = dict((id(ref), problem) for ref, problem in refs_check.problems(refs, ctx.output_dir))
    roots = paths.read_roots(ctx.output_dir)
    rows = [listed_dict(ref, judged.get(id(ref)), roots) for ref in refs]
    if "kind" in params:
        rows = [r for r in rows if r["kind"] == params["kind"]]
    if "kinds" in params:
        rows = [r for r in rows if r["kind"] in params["kinds"]]
    if params.get("refused_only"):
        rows = [r for r in rows if r["problem"] is not None]
    offset, limit = params.get("offset", 0), params.get("limit", 100)
    return {"references": rows[offset:offset + limit], "total": len(rows), "refused": len(judged), "offset": offset,
            "limit": limit, "output_folder": ctx.output_dir, "read_roots": list(roots)}


@command(
    effect="destroy",
    summary="Detach every file reference capstan refuses in the open scene (clear the path, remove the node, strip or library, cache off) and reset render outputs into the output folder.",
    params=s.obj({}),
    result=s.obj({
        "detached": s.array(refs_check.DETACHED),
        "remaining": s.array(refs_check.REFERENCE, description="What could not be detached: renders and loads stay refused"),
    }, required=("detached", "remaining")),
    full_delta=True,
)
def detach_file_references(ctx, params):
    done, left = refs_check.detach_scene(ctx.output_dir)
    return {"detached": done, "remaining": [refs_check.reference_dict(ref, problem) for ref, problem in left]}
