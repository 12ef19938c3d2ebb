"""The scene's file references, read back and detached: the same list the check before
a load or a render uses (`file_refs.file_references`, judged by `file_refs_check`)."""

from .. import file_refs
from .. import file_refs_check as refs_check
from .. import paths
from .. import schema as s
from ..command import command

MAX_LIMIT = 500


@command(
    effect="read",
    summary="List every file the open scene refers to (images, libraries, caches, import nodes, File Output nodes, render output, ...), resolved, with why capstan would refuse it.",
    params=s.obj({
        "kind": s.enum(file_refs.KINDS),
        "refused_only": s.boolean(description="Only the references capstan refuses (default false)"),
        "offset": s.integer(0, 1000000),
        "limit": s.integer(1, MAX_LIMIT, description="Default 100"),
    }),
    result=s.obj({
        "references": s.array(refs_check.REFERENCE, max_items=MAX_LIMIT),
        "total": s.integer(0), "refused": s.integer(0, description="How many of all references capstan refuses"),
        "offset": s.integer(0), "limit": s.integer(1),
        "output_folder": s.string(), "read_roots": s.array(s.string()),
    }, required=("references", "total", "refused", "offset", "limit", "output_folder", "read_roots")),
)
def list_file_references(ctx, params):
    refs = file_refs.file_references()
    judged = dict((id(ref), problem) for ref, problem in refs_check.problems(refs, ctx.output_dir))
    rows = [refs_check.reference_dict(ref, judged.get(id(ref))) for ref in refs]
    if "kind" in params:
        rows = [r for r in rows if r["kind"] == params["kind"]]
    if params.get("refused_only"):
        rows = [r for r in rows if r["problem"] is not None]
    offset, limit = params.get("offset", 0), params.get("limit", 100)
    return {"references": rows[offset:offset + limit], "total": len(rows), "refused": len(judged), "offset": offset,
            "limit": limit, "output_folder": ctx.output_dir, "read_roots": list(paths.read_roots(ctx.output_dir))}


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
