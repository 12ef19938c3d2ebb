"""Data from files: append or link datablocks of a local .blend, images as textured
planes. Data API only (`bpy.data.libraries.load`, meshes and node trees built directly);
inputs only from the read roots (bridges/blender/docs/inputs.md). What an append brings
is checked for file references outside the read roots or the output folder, first in a
temporary Main and again once appended, before anything evaluates it (`file_refs_check`)."""

import math
import os

import bpy

from .. import file_refs_check as refs_check
from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError
from .common import claim_name, link
from .images import image_from, input_file

DATABLOCK_TYPES = {"Object": "objects", "Collection": "collections", "Material": "materials",
                   "NodeTree": "node_groups", "World": "worlds", "Action": "actions"}
MAX_NAMES = 64
PLANE_IMAGES = (".png", ".jpg", ".jpeg")
PATH = s.string(1, paths.MAX_INPUT_PATH, description="Absolute path under a read root, or a bare file name in the session output directory")


def available_names(real, attr):
    """The names of one datablock type in a .blend, read into a temporary Main: the
    session's data is untouched."""
    with bpy.data.temp_data() as temp:
        with temp.libraries.load(real) as (src, _dst):
            return list(getattr(src, attr))


def load_datablocks(real, attr, names, link_=False):
    """Append (or link) `names` of `attr` from `real`; objects and collections are put
    in the scene. Returns the new datablocks."""
    present = available_names(real, attr)
    missing = [n for n in names if n not in present]
    if missing:
        raise CommandError("not_found", "%s has no %s named %s" % (os.path.basename(real), attr, ", ".join(map(repr, missing[:5]))))
    with bpy.data.libraries.load(real, link=link_) as (_src, dst):
        setattr(dst, attr, list(names))
    blocks = [b for b in getattr(dst, attr) if b is not None]
    scene_root = bpy.context.scene.collection
    for b in blocks:
        if attr == "objects" and not b.users_scene:
            link(b)
        elif attr == "collections" and b.name not in scene_root.children:
            scene_root.children.link(b)
    return blocks


@command(
    effect="mutate",
    summary="Append (or link) objects, collections, materials, node groups, worlds or actions from a .blend under a read root.",
    params=s.obj({
        "path": PATH,
        "datablock_type": s.enum(tuple(DATABLOCK_TYPES)),
        "names": s.array(s.string(1, s.NAME_MAX), 1, MAX_NAMES),
        "link": s.boolean(description="true: link (read-only, stays in the library file); false (default): append a local copy"),
        "location": s.ref("vec3"),
        "detach_outside_references": refs_check.DETACH_PARAM,
    }, required=("path", "datablock_type", "names")),
    result=s.obj({"path": s.string(), "kind": s.string(), "datablocks": s.array(s.string()), "linked": s.boolean(),
                  "detached": s.array(refs_check.DETACHED)},
                 required=("path", "kind", "datablocks", "linked")),
    errors=("path_refused", "not_found", "invalid_params", refs_check.CODE),
    full_delta=True,
    timeout_s=120,
)
def append_from_blend(ctx, params):
    real = input_file(ctx, params["path"], (".blend",))
    kind, linked = params["datablock_type"], params.get("link", False)
    if "location" in params and (linked or kind != "Object"):
        raise CommandError("invalid_params", "location applies to appended (not linked) objects only")
    if len(set(params["names"])) != len(params["names"]):
        raise CommandError("invalid_params", "names repeat")
    attr, detach, subject = DATABLOCK_TYPES[kind], params.get("detach_outside_references", False), repr(os.path.basename(real))
    refused = [] if detach else refs_check.prescan(ctx, real, attr, params["names"], linked)
    if refused:
        raise refs_check.refusal(subject, refused, "Nothing was appended. Pass detach_outside_references: true to "
                                 "append with these detached.")
    before = refs_check.id_uids()
    blocks = load_datablocks(real, attr, params["names"], linked)
    detached = refs_check.check_new(ctx, before, detach, subject)
    blocks = [b for b in blocks if _alive(b)]  # detaching may remove a library, and what was linked from it
    if "location" in params:
        for b in blocks:
            b.location = params["location"]
    out = {"path": real, "kind": kind, "datablocks": [b.name for b in blocks], "linked": linked}
    if detach:
        out["detached"] = detached
    return out


def _alive(block):
    try:
        block.name
    except ReferenceError:
        return False
    return True


def _plane_material(image, name, emission, alpha):
    mat = bpy.data.materials.new(name)
    tree = mat.node_tree if mat.node_tree is not None else None
    if tree is None:
        mat.use_nodes = True
        tree = mat.node_tree
    bsdf = next(n for n in tree.nodes if n.bl_idname == "ShaderNodeBsdfPrincipled")
    tex = tree.nodes.new("ShaderNodeTexImage")
    tex.image = image
    tex.location = (bsdf.location.x - 400, bsdf.location.y)
    tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    if emission:
        tree.links.new(tex.outputs["Color"], bsdf.inputs["Emission Color"])
        bsdf.inputs["Emission Strength"].default_value = 1.0
    if alpha:
        tree.links.new(tex.outputs["Alpha"], bsdf.inputs["Alpha"])
    return mat


@command(
    effect="mutate",
    summary="Add an image (png/jpg under a read root) as a plane of its aspect ratio with an image-textured material.",
    params=s.obj({
        "path": PATH,
        "name": s.string(1, s.NAME_MAX, pattern=r"^[A-Za-z0-9_. -]+$"),
        "size": s.number(exclusive_minimum=0, maximum=1000, description="Length of the longer side in metres (default 1)"),
        "location": s.ref("vec3"),
        "rotation": s.ref("vec3"),
        "emission": s.boolean(description="The image also emits its own colour (shows unlit)"),
        "alpha": s.boolean(description="The image's alpha drives transparency"),
    }, required=("path",)),
    result=s.obj({"name": s.string(), "image": s.string(), "material": s.string(), "dimensions": s.array(s.number(), 2, 2)},
                 required=("name", "image", "material", "dimensions")),
    errors=("path_refused", "not_found", "unsupported"),
)
def create_image_plane(ctx, params):
    real = input_file(ctx, params["path"], PLANE_IMAGES)
    image, _ = image_from(ctx, real)
    w, h = image.size
    if w == 0 or h == 0:
        raise CommandError("unsupported", "%r has no pixels" % os.path.basename(real))
    size = float(params.get("size", 1.0))
    sx, sy = (size, size * h / w) if w >= h else (size * w / h, size)
    name = params.get("name") or os.path.splitext(os.path.basename(real))[0][:s.NAME_MAX] or "Image"
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([(-sx / 2, -sy / 2, 0), (sx / 2, -sy / 2, 0), (sx / 2, sy / 2, 0), (-sx / 2, sy / 2, 0)], [], [(0, 1, 2, 3)])
    uv = mesh.uv_layers.new(name="UVMap")
    for loop, co in zip(uv.data, ((0, 0), (1, 0), (1, 1), (0, 1))):
        loop.uv = co
    mat = ctx.delta.created_datablock("materials", _plane_material(image, name, params.get("emission", False), params.get("alpha", False)))
    mesh.materials.append(mat)
    obj = ctx.delta.created(bpy.data.objects.new(name, mesh))
    link(obj)
    out = {}
    claim_name(obj, name, out)
    obj.location = params.get("location", (0.0, 0.0, 0.0))
    obj.rotation_euler = params.get("rotation", (0.0, 0.0, 0.0))
    return {"name": obj.name, "image": image.name, "material": mat.name, "dimensions": [round(sx, 6), round(sy, 6)]}
