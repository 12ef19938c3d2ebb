"""Local asset libraries (never the network): mark datablocks as assets, search the read
roots for marked assets in .blend files, HDRI files and PBR texture-set folders, and
apply a texture set to an object's material.

.blend files are read into a temporary Main (`bpy.data.temp_data`): searching never
adds a library or a datablock to the session. Scans are bounded (files walked, .blend
files opened, depth). Data API only."""

import os
import re

import bpy

from ..core import paths
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import get_object
from .images import IMAGE_EXTENSIONS, image_from, input_file

KINDS = {"object": "objects", "collection": "collections", "material": "materials", "world": "worlds", "node_group": "node_groups"}
SEARCH_KINDS = tuple(KINDS) + ("hdri", "texture_set")
HDRI_EXTENSIONS = (".hdr", ".exr")
MAX_WALKED = 5000      # directory entries looked at per search
MAX_BLENDS = 64        # .blend files opened per search
MAX_DEPTH = 6          # folder levels below a root
MAX_TAGS = 32
TAG = s.string(1, 64, pattern=r"^[A-Za-z0-9_. -]+$")
UUID = s.string(36, 36, pattern=r"^[0-9a-fA-F-]{36}$", description="An asset catalog UUID (from blender_assets.cats.txt)")
NIL_UUID = "00000000-0000-0000-0000-000000000000"

# Texture-set map roles and the file-name tokens that name them (Poly Haven, ambientCG, ...).
ROLES = {
    "diffuse": ("diff", "diffuse", "albedo", "basecolor", "color", "col"),
    "normal": ("nor", "normal", "nrm"),
    "roughness": ("rough", "roughness"),
    "metallic": ("metal", "metallic", "metalness"),
    "displacement": ("disp", "displacement", "height"),
    "ao": ("ao", "ambientocclusion", "occlusion"),
}


def _split(filename):
    """(set prefix, role) of an image file name: `bricks_nor_gl_1k.png` -> ("bricks", "normal")."""
    tokens = re.split(r"[_\-. ]+", os.path.splitext(filename)[0].lower())
    for i, tok in enumerate(tokens):
        for role, names in ROLES.items():
            if tok in names:
                return "_".join(tokens[:i]), role
    return None, None


def role_of(filename):
    return _split(filename)[1]


def texture_sets(names):
    """{prefix: {role: file name}} of the images of one folder, grouped by the name part
    before the role token; a set needs a diffuse map and one more (first by name wins)."""
    groups = {}
    for n in sorted(names):
        if n.lower().endswith(IMAGE_EXTENSIONS):
            prefix, role = _split(n)
            if role:
                groups.setdefault(prefix, {}).setdefault(role, n)
    return {p: m for p, m in groups.items() if "diffuse" in m and len(m) >= 2}


# -- mark ---------------------------------------------------------------------------

@command(
    effect="mutate",
    summary="Mark an object, collection, material, world or node group as an asset, with tags, a catalog and a description.",
    params=s.obj({
        "target": s.ref("datablock_name"),
        "kind": s.enum(tuple(KINDS)),
        "catalog": UUID,
        "tags": s.array(TAG, 0, MAX_TAGS),
        "description": s.string(0, 1024),
    }, required=("target", "kind")),
    result=s.obj({"target": s.string(), "kind": s.string(), "tags": s.array(s.string()), "catalog": s.nullable(s.string()),
                  "description": s.string()}, required=("target", "kind", "tags", "catalog", "description")),
    errors=("not_found", "invalid_target"),
)
def mark_asset(ctx, params):
    kind = params["kind"]
    block = getattr(bpy.data, KINDS[kind]).get(params["target"])
    if block is None:
        raise not_found(kind, params["target"])
    if block.library is not None:
        raise invalid_target("%r is linked from a library; only local datablocks can be marked" % block.name)
    if kind == "object":
        ctx.delta.touch(block)
    else:
        ctx.delta.touch_datablock(KINDS[kind], block)
    block.asset_mark()
    data = block.asset_data
    for tag in params.get("tags", []):
        if tag not in data.tags:
            data.tags.new(tag, skip_if_exists=True)
    if "description" in params:
        data.description = params["description"]
    if "catalog" in params:
        data.catalog_id = params["catalog"]
    catalog = data.catalog_id if data.catalog_id != NIL_UUID else None
    return {"target": block.name, "kind": kind, "tags": sorted(t.name for t in data.tags), "catalog": catalog, "description": data.description}


# -- search -------------------------------------------------------------------------

def _walk(root):
    """(folder, file names) under a root, bounded by depth and entries walked."""
    walked = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        depth = os.path.relpath(folder, root).count(os.sep) + (folder != root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < MAX_DEPTH else []
        walked += len(dirs) + len(files)
        if walked > MAX_WALKED:
            return
        yield folder, sorted(files)


def _blend_assets(real):
    """The marked assets of one .blend: (kind, name, tags, catalog, description)."""
    found = []
    with bpy.data.temp_data() as temp:
        with temp.libraries.load(real, assets_only=True) as (src, dst):
            for attr in KINDS.values():
                setattr(dst, attr, list(getattr(src, attr)))
        for kind, attr in KINDS.items():
            for b in getattr(temp, attr):
                data = b.asset_data
                if data is None:
                    continue
                cat = data.catalog_id if data.catalog_id != NIL_UUID else None
                found.append((kind, b.name, sorted(t.name for t in data.tags), cat, data.description))
    return found


def scan(ctx):
    """Every local asset under the read roots, sorted; the scan is bounded."""
    items, blends = [], 0
    for root in paths.read_roots(ctx.output_dir):
        for folder, files in _walk(root):
            rel = lambda n: os.path.relpath(os.path.join(folder, n), root)  # noqa: E731
            sets = texture_sets(files)
            in_sets = {n for maps in sets.values() for n in maps.values()}
            for prefix, maps in sorted(sets.items()):
                items.append({"name": prefix or os.path.basename(folder), "kind": "texture_set", "library": root,
                              "file": rel(maps["diffuse"]), "tags": [], "catalog": None, "description": "", "maps": maps})
            for n in files:
                low = n.lower()
                if low.endswith(HDRI_EXTENSIONS) and n not in in_sets and role_of(n) is None:
                    items.append({"name": os.path.splitext(n)[0], "kind": "hdri", "library": root, "file": rel(n),
                                  "tags": [], "catalog": None, "description": ""})
                elif low.endswith(".blend") and blends < MAX_BLENDS:
                    blends += 1
                    try:
                        for kind, name, tags, cat, desc in _blend_assets(os.path.join(folder, n)):
                            items.append({"name": name, "kind": kind, "library": root, "file": rel(n), "tags": tags,
                                          "catalog": cat, "description": desc})
                    except (OSError, RuntimeError):
                        continue  # not a readable .blend: skipped, as Blender's asset browser does
    return sorted(items, key=lambda i: (i["kind"], i["name"].lower(), i["library"], i["file"]))


ITEM = s.obj({
    "name": s.string(), "kind": s.enum(SEARCH_KINDS), "library": s.string(description="The read root holding it"),
    "file": s.string(description="Path of the .blend, HDRI or texture-set folder relative to the library"),
    "tags": s.array(s.string()), "catalog": s.nullable(s.string()), "description": s.string(),
    "maps": s.obj({role: s.string() for role in ROLES}),
}, required=("name", "kind", "library", "file", "tags", "catalog", "description"))


@command(
    effect="read",
    summary="Search the read roots for local assets: marked assets in .blend files, HDRI files, PBR texture-set folders (paged).",
    params=s.obj({
        "query": s.string(1, 128, description="Case-insensitive words that must all occur in the name, tags or description"),
        "kind": s.enum(SEARCH_KINDS),
        "catalog": UUID,
        "tags": s.array(TAG, 0, MAX_TAGS, description="Every one must be among the asset's tags"),
        "offset": s.integer(0, 100000),
        "limit": s.integer(1, 200),
    }),
    result=s.obj({"assets": s.array(ITEM), "total": s.integer(0), "offset": s.integer(0), "limit": s.integer(1),
                  "roots": s.array(s.string())}, required=("assets", "total", "offset", "limit", "roots")),
    timeout_s=60,
)
def list_local_assets(ctx, params):
    words = (params.get("query") or "").lower().split()
    want_tags = {t.lower() for t in params.get("tags", [])}

    def keep(i):
        if "kind" in params and i["kind"] != params["kind"]:
            return False
        if "catalog" in params and i["catalog"] != params["catalog"]:
            return False
        tags = {t.lower() for t in i["tags"]}
        if not want_tags <= tags:
            return False
        text = " ".join([i["name"], i["description"], *i["tags"]]).lower()
        return all(w in text for w in words)

    hits = [i for i in scan(ctx) if keep(i)]
    offset, limit = params.get("offset", 0), params.get("limit", 50)
    return {"assets": hits[offset:offset + limit], "total": len(hits), "offset": offset, "limit": limit,
            "roots": list(paths.read_roots(ctx.output_dir))}


# -- texture sets -------------------------------------------------------------------

TS_TAG = "capstan_ts_"
_ROLE_INPUT = {"diffuse": "Base Color", "roughness": "Roughness", "metallic": "Metallic"}


def _set_files(ctx, path):
    """{role: real path} of the texture set named by `path`: one of its map files (an
    absolute path under a read root, or a bare file name of the output folder; the set is
    the maps beside it sharing its name prefix), or a folder holding one set."""
    if os.path.isabs(path) and os.path.isdir(path):
        probe, prefix = os.path.join(path, "probe.png"), None
    else:
        probe, prefix = path, None
    try:
        real = paths.readable(ctx.output_dir, probe, IMAGE_EXTENSIONS)
    except paths.PathRefused as e:
        raise CommandError("path_refused", str(e))
    except paths.InputMissing:
        if probe == path:
            raise CommandError("not_found", "no file at %r" % path)
        real = os.path.realpath(probe)
    folder = os.path.dirname(real)
    if probe == path:
        prefix = _split(os.path.basename(real))[0]
        if prefix is None:
            raise CommandError("not_found", "%r names no texture-set map (diff, nor, rough, metal, disp, ao)" % path)
    sets = texture_sets(os.listdir(folder))
    if prefix is None and len(sets) == 1:
        prefix = next(iter(sets))
    maps = sets.get(prefix)
    if not maps:
        raise CommandError("not_found", "%r holds no single texture set (a diffuse map and at least one other map)" % path)
    return {role: input_file(ctx, os.path.join(folder, name), IMAGE_EXTENSIONS) for role, name in maps.items()}


def _material_of(ctx, obj):
    """The object's first material with a Principled BSDF, else a new one in slot 0."""
    mat = obj.active_material
    if mat is not None and mat.library is None and mat.node_tree is not None and \
            any(n.bl_idname == "ShaderNodeBsdfPrincipled" for n in mat.node_tree.nodes):
        return ctx.delta.touch_datablock("materials", mat)
    ctx.delta.touch(obj)
    mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(obj.name + "_texture_set"))
    if mat.node_tree is None:
        mat.use_nodes = True
    if obj.material_slots:
        obj.material_slots[0].material = mat
    else:
        obj.data.materials.append(mat)
    return mat


@command(
    effect="mutate",
    summary="Apply a local PBR texture-set folder (diffuse/normal/roughness/metallic/ao/displacement by file name) to an object's material.",
    params=s.obj({
        "object": s.ref("object_name"),
        "path": s.string(1, paths.MAX_INPUT_PATH, description="A map file of the set (absolute under a read root, or a bare file name of the output folder), or a folder holding one set"),
        "scale": s.number(exclusive_minimum=0, maximum=1000, description="Texture repeats per UV unit (default 1)"),
        "displacement": s.boolean(description="Also drive the material's displacement from the height map"),
    }, required=("object", "path")),
    result=s.obj({"object": s.string(), "material": s.string(), "maps": s.obj({r: s.string() for r in ROLES}),
                  "scale": s.number(), "displacement": s.boolean()},
                 required=("object", "material", "maps", "scale", "displacement")),
    errors=("path_refused", "not_found", "invalid_target", "unsupported"),
)
def apply_texture_set(ctx, params):
    obj = get_object(params["object"])
    if obj.type != "MESH":
        raise invalid_target("%r is a %s; a texture set needs a mesh" % (obj.name, obj.type))
    files = _set_files(ctx, params["path"])
    use_disp = params.get("displacement", False) and "displacement" in files
    mat = _material_of(ctx, obj)
    tree = mat.node_tree
    bsdf = next(n for n in tree.nodes if n.bl_idname == "ShaderNodeBsdfPrincipled")
    out = next((n for n in tree.nodes if n.bl_idname == "ShaderNodeOutputMaterial"), None)
    for node in [n for n in tree.nodes if n.name.startswith(TS_TAG)]:
        tree.nodes.remove(node)
    new = lambda kind, name, x, y: _node(tree, kind, TS_TAG + name, x, y)  # noqa: E731
    coord = new("ShaderNodeTexCoord", "coord", bsdf.location.x - 1200, bsdf.location.y)
    mapping = new("ShaderNodeMapping", "mapping", bsdf.location.x - 1000, bsdf.location.y)
    scale = float(params.get("scale", 1.0))
    mapping.inputs["Scale"].default_value = (scale, scale, scale)
    tree.links.new(coord.outputs["UV"], mapping.inputs["Vector"])
    images, texs = {}, {}
    for i, (role, real) in enumerate(sorted(files.items())):
        if role == "displacement" and not use_disp:
            continue
        image, _ = image_from(ctx, real)
        image.colorspace_settings.name = "sRGB" if role == "diffuse" else "Non-Color"
        tex = new("ShaderNodeTexImage", role, bsdf.location.x - 700, bsdf.location.y - 280 * i)
        tex.image = image
        tree.links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
        images[role], texs[role] = image.name, tex
    color = texs["diffuse"].outputs["Color"]
    if "ao" in texs:
        mix = new("ShaderNodeMix", "ao_multiply", bsdf.location.x - 300, bsdf.location.y)
        mix.data_type, mix.blend_type = "RGBA", "MULTIPLY"
        mix.inputs["Factor"].default_value = 1.0
        tree.links.new(color, mix.inputs["A"])
        tree.links.new(texs["ao"].outputs["Color"], mix.inputs["B"])
        color = mix.outputs["Result"]
    tree.links.new(color, bsdf.inputs["Base Color"])
    for role in ("roughness", "metallic"):
        if role in texs:
            tree.links.new(texs[role].outputs["Color"], bsdf.inputs[_ROLE_INPUT[role]])
    if "normal" in texs:
        nm = new("ShaderNodeNormalMap", "normal_map", bsdf.location.x - 300, bsdf.location.y - 400)
        tree.links.new(texs["normal"].outputs["Color"], nm.inputs["Color"])
        tree.links.new(nm.outputs["Normal"], bsdf.inputs["Normal"])
    if use_disp:
        if out is None:
            raise invalid_target("material %r has no Material Output for displacement" % mat.name)
        disp = new("ShaderNodeDisplacement", "displacement", out.location.x - 200, out.location.y - 300)
        tree.links.new(texs["displacement"].outputs["Color"], disp.inputs["Height"])
        tree.links.new(disp.outputs["Displacement"], out.inputs["Displacement"])
    return {"object": obj.name, "material": mat.name, "maps": images, "scale": scale, "displacement": use_disp}


def _node(tree, kind, name, x, y):
    node = tree.nodes.new(kind)
    node.name = node.label = name
    node.location = (x, y)
    return node
