"""Node-built materials: presets, assignment to slots or faces, listing.

Everything is data API (node trees, material slots, polygon material indices). Image
inputs are in `images.py`.
"""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, get_object, rounded, uses_legacy_node_toggle

SAFE_NAME = s.string(1, 63, pattern=r"^[A-Za-z0-9_. -]{1,63}$", description="Name: letters, digits, _ . - and spaces")
UNIT = s.number(0, 1)
PRESETS = ("marble", "wood", "metal", "glass", "emissive", "concrete", "fabric", "volume_fog", "volume_fire")
MAX_FACES = 100_000


def get_material(name):
    mat = bpy.data.materials.get(name)
    if mat is None:
        raise not_found("material", name)
    return mat


def tree_of(mat):
    if uses_legacy_node_toggle() and not mat.use_nodes:
        mat.use_nodes = True
    return mat.node_tree


def principled(mat):
    return next((n for n in tree_of(mat).nodes if n.type == "BSDF_PRINCIPLED"), None)


def output_node(tree):
    out = next((n for n in tree.nodes if n.type == "OUTPUT_MATERIAL" and n.is_active_output), None)
    return out or next((n for n in tree.nodes if n.type == "OUTPUT_MATERIAL"), None)


def socket(sockets, *names):
    """The first socket of `names` this Blender has (names moved between versions)."""
    for name in names:
        if name in sockets:
            return sockets[name]
    raise CommandError("unsupported", "this Blender has no socket %s" % " / ".join(names))


def mesh_holder(obj):
    if obj.data is None or not hasattr(obj.data, "materials"):
        raise invalid_target("object %r (%s) cannot hold materials" % (obj.name, obj.type))
    return obj.data


# -- presets --------------------------------------------------------------------------

def _node(tree, kind, x, y, **inputs):
    node = tree.nodes.new(kind)
    node.location = (x, y)
    for name, value in inputs.items():
        node.inputs[name.replace("_", " ")].default_value = value
    return node


def _ramp(tree, x, y, c1, c2, lo=0.0, hi=1.0):
    ramp = _node(tree, "ShaderNodeValToRGB", x, y)
    a, b = ramp.color_ramp.elements
    a.position, a.color = lo, c1
    b.position, b.color = hi, c2
    return ramp


def _coords(tree, scale):
    coord = _node(tree, "ShaderNodeTexCoord", -1200, 0)
    mapping = _node(tree, "ShaderNodeMapping", -1000, 0)
    mapping.inputs["Scale"].default_value = (scale, scale, scale)
    tree.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
    return mapping.outputs["Vector"]


def _build(mat, preset, p):
    tree = tree_of(mat)
    tree.nodes.clear()
    links = tree.links
    out = _node(tree, "ShaderNodeOutputMaterial", 400, 0)
    c1, c2 = p["color1"], p["color2"]
    if preset in ("volume_fog", "volume_fire"):
        vol = _node(tree, "ShaderNodeVolumePrincipled", 0, 0, Density=p["density"])
        vol.inputs["Color"].default_value = c1
        if preset == "volume_fire":
            vol.inputs["Blackbody Intensity"].default_value = 1.0
            vol.inputs["Temperature"].default_value = 1500.0
            vol.inputs["Emission Strength"].default_value = p["emission_strength"]
            vol.inputs["Emission Color"].default_value = c2
        links.new(vol.outputs["Volume"], out.inputs["Volume"])
        return vol
    if preset == "emissive":
        em = _node(tree, "ShaderNodeEmission", 0, 0, Color=c1, Strength=p["emission_strength"])
        links.new(em.outputs["Emission"], out.inputs["Surface"])
        return em
    bsdf = _node(tree, "ShaderNodeBsdfPrincipled", 0, 0)
    links.new(bsdf.outputs["BSDF"], out.inputs["Surface"])
    bsdf.inputs["Roughness"].default_value = p["roughness"]
    bsdf.inputs["IOR"].default_value = p["ior"]
    bsdf.inputs["Base Color"].default_value = c1
    if preset == "glass":
        socket(bsdf.inputs, "Transmission Weight", "Transmission").default_value = 1.0
        return bsdf
    vec = _coords(tree, p["scale"])
    if preset in ("marble", "wood"):
        wave = _node(tree, "ShaderNodeTexWave", -800, 0, Distortion=12.0 if preset == "marble" else 3.0, Detail=6.0)
        wave.wave_type = "BANDS" if preset == "marble" else "RINGS"
        links.new(vec, wave.inputs["Vector"])
        ramp = _ramp(tree, -500, 0, c1, c2, 0.2, 0.8)
        links.new(wave.outputs["Fac"], ramp.inputs["Fac"])
        links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    elif preset == "metal":
        bsdf.inputs["Metallic"].default_value = 1.0
        noise = _node(tree, "ShaderNodeTexNoise", -800, -200, Detail=8.0)
        links.new(vec, noise.inputs["Vector"])
        rough = _ramp(tree, -500, -200, (p["roughness"] * 0.6,) * 3 + (1.0,), (min(1.0, p["roughness"] * 1.4),) * 3 + (1.0,))
        links.new(noise.outputs["Fac"], rough.inputs["Fac"])
        links.new(rough.outputs["Color"], bsdf.inputs["Roughness"])
    elif preset == "concrete":
        noise = _node(tree, "ShaderNodeTexNoise", -800, 0, Detail=12.0, Roughness=0.7)
        links.new(vec, noise.inputs["Vector"])
        ramp = _ramp(tree, -500, 0, c1, c2, 0.35, 0.65)
        links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
        links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
        bump = _node(tree, "ShaderNodeBump", -250, -250, Strength=0.3)
        links.new(noise.outputs["Fac"], bump.inputs["Height"])
        links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])
    elif preset == "fabric":
        weave = _node(tree, "ShaderNodeTexChecker", -800, 0, Color1=c1, Color2=c2, Scale=20.0)
        links.new(vec, weave.inputs["Vector"])
        links.new(weave.outputs["Color"], bsdf.inputs["Base Color"])
        socket(bsdf.inputs, "Sheen Weight", "Sheen").default_value = 0.6
    return bsdf


@command(
    effect="mutate",
    summary="Build (or rebuild) a node material from a preset: marble, wood, metal, glass, emissive, concrete, fabric, volume fog or fire.",
    params=s.obj({
        "name": SAFE_NAME,
        "preset": s.enum(PRESETS),
        "color1": s.ref("rgba"),
        "color2": s.ref("rgba"),
        "scale": s.number(exclusive_minimum=0, maximum=1000, description="Texture scale (pattern repeats per metre)"),
        "roughness": UNIT,
        "ior": s.number(1, 3),
        "density": s.number(0, 100, description="Volume density"),
        "emission_strength": s.number(0, 1000),
    }, required=("name", "preset", "color1", "color2", "scale", "roughness", "ior", "density", "emission_strength")),
    result=s.obj({
        "material": s.string(), "preset": s.enum(PRESETS), "created": s.boolean(),
        "nodes": s.array(s.string()), "links": s.integer(0),
    }, required=("material", "preset", "created", "nodes", "links")),
    errors=("unsupported",),
)
def build_node_material(ctx, params):
    name = params["name"]
    mat = bpy.data.materials.get(name)
    created = mat is None
    if created:
        mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(name))
    else:
        ctx.delta.touch_datablock("materials", mat)
    _build(mat, params["preset"], params)
    mat.diffuse_color = params["color1"]
    mat["capstan_preset"] = params["preset"]
    tree = mat.node_tree
    return {
        "material": mat.name, "preset": params["preset"], "created": created,
        "nodes": sorted(n.bl_idname for n in tree.nodes), "links": len(tree.links),
    }


@command(
    effect="mutate",
    summary="Assign an existing material to an object's slot (appending the slot when it is the next one), optionally only to some faces.",
    params=s.obj({
        "object": OBJECT,
        "material": s.ref("datablock_name"),
        "slot": s.integer(0, 255, description="Slot index; one past the last appends a slot"),
        "faces": s.array(s.integer(0), 1, MAX_FACES, description="Polygon indices that use this slot (mesh only)"),
    }, required=("object", "material")),
    result=s.obj({
        "object": s.string(), "material": s.string(), "slot": s.integer(0), "slots": s.array(s.nullable(s.string())),
        "faces_assigned": s.integer(0),
    }, required=("object", "material", "slot", "slots", "faces_assigned")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def assign_material(ctx, params):
    obj = get_object(params["object"])
    data = mesh_holder(obj)
    mat = get_material(params["material"])
    count = len(obj.material_slots)
    slot = params.get("slot", 0)
    if slot > count:
        raise CommandError("invalid_params", "slot %d: the object has %d slots (the next one, %d, appends)" % (slot, count, count))
    faces = params.get("faces")
    if faces is not None:
        if obj.type != "MESH":
            raise invalid_target("faces are for meshes; %r is a %s" % (obj.name, obj.type))
        bad = [f for f in faces if f >= len(data.polygons)]
        if bad:
            raise CommandError("invalid_params", "face %d is out of range: the mesh has %d faces" % (bad[0], len(data.polygons)))
    ctx.delta.touch_data_users(obj)
    if slot == count:
        data.materials.append(mat)
    elif obj.material_slots[slot].link == "OBJECT":
        obj.material_slots[slot].material = mat
    else:
        data.materials[slot] = mat
    for index in faces or ():
        data.polygons[index].material_index = slot
    return {
        "object": obj.name, "material": mat.name, "slot": slot,
        "slots": [sl.material.name if sl.material else None for sl in obj.material_slots],
        "faces_assigned": len(faces or ()),
    }


# The Principled BSDF inputs read back by name, beyond colour, metallic and roughness
# (result field, then the input's names: 4.x/5.x first, older spellings after).
PRINCIPLED_READS = (
    ("transmission", ("Transmission Weight", "Transmission")),
    ("ior", ("IOR",)),
    ("emission_color", ("Emission Color", "Emission")),
    ("emission_strength", ("Emission Strength",)),
    ("alpha", ("Alpha",)),
    ("subsurface", ("Subsurface Weight", "Subsurface")),
    ("coat", ("Coat Weight", "Coat", "Clearcoat")),
    ("sheen", ("Sheen Weight", "Sheen")),
)
SHADER_FOLLOW = ("MIX_SHADER", "ADD_SHADER", "REROUTE")
MAX_SURFACE_NODES = 8
MAX_NODE_INPUTS = 24


def _value(sock):
    """An unlinked input's value as a number or a list of numbers; None for other kinds."""
    v = getattr(sock, "default_value", None)
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return round(float(v), 5)
    try:
        vals = [float(x) for x in v]
    except (TypeError, ValueError):
        return None
    return [round(x, 5) for x in vals] if 1 <= len(vals) <= 4 else None


def _surface_nodes(tree):
    """The shader nodes feeding the active material output's Surface, following mix and add
    shaders (and reroutes): what the material is made of when it is not one Principled BSDF."""
    out = next((n for n in tree.nodes if n.type == "OUTPUT_MATERIAL" and n.is_active_output), None) \
        or next((n for n in tree.nodes if n.type == "OUTPUT_MATERIAL"), None)
    if out is None or "Surface" not in out.inputs:
        return []
    rows, seen, todo = [], set(), [out.inputs["Surface"]]
    while todo and len(rows) < MAX_SURFACE_NODES:
        sock = todo.pop(0)
        for link in sock.links:
            node = link.from_node
            if node.name in seen:
                continue
            seen.add(node.name)
            if node.type != "REROUTE":
                inputs = {}
                if node.type != "BSDF_PRINCIPLED":  # its values are the row's own fields
                    for i in node.inputs:
                        if len(inputs) >= MAX_NODE_INPUTS:
                            break
                        val = None if i.is_linked else _value(i)
                        if val is not None and getattr(i, "enabled", True):
                            inputs[i.name] = val
                rows.append({"name": node.name, "type": node.bl_idname, "inputs": inputs,
                             "linked_inputs": [i.name for i in node.inputs if i.is_linked][:MAX_NODE_INPUTS]})
            if node.type in SHADER_FOLLOW:
                todo.extend(i for i in node.inputs if i.type == "SHADER" or node.type == "REROUTE")
    return rows


def _principled_of(tree, surface):
    """The Principled BSDF feeding the surface, else the tree's first one."""
    for row in surface:
        node = tree.nodes.get(row["name"])
        if node is not None and node.type == "BSDF_PRINCIPLED":
            return node
    return next((n for n in tree.nodes if n.type == "BSDF_PRINCIPLED"), None)


def _bsdf_values(mat):
    """Colour, metallic, roughness and the other Principled inputs by name; without a
    Principled BSDF, the viewport values and null for the rest. `surface` says what feeds
    the output either way. Reads only: the node tree is not created or enabled here."""
    tree = mat.node_tree
    surface = _surface_nodes(tree) if tree is not None else []
    node = _principled_of(tree, surface) if tree is not None else None
    if node is None:
        row = {"base_color": rounded(mat.diffuse_color), "metallic": round(mat.metallic, 5), "roughness": round(mat.roughness, 5),
               "principled": False, "linked_inputs": []}
        row.update({field: None for field, _names in PRINCIPLED_READS})
    else:
        row = {
            "base_color": rounded(node.inputs["Base Color"].default_value),
            "metallic": round(node.inputs["Metallic"].default_value, 5),
            "roughness": round(node.inputs["Roughness"].default_value, 5),
            "principled": True,
            "linked_inputs": [i.name for i in node.inputs if i.is_linked][:MAX_NODE_INPUTS],
        }
        for field, names in PRINCIPLED_READS:
            sock = next((node.inputs[n] for n in names if n in node.inputs), None)
            row[field] = _value(sock) if sock is not None else None
    row["surface"] = surface
    return row


GRAPH = s.obj({
    "nodes": s.array(s.obj({"name": s.string(), "type": s.string()}, required=("name", "type"))),
    "links": s.array(s.obj({"from_node": s.string(), "from_socket": s.string(), "to_node": s.string(), "to_socket": s.string()},
                           required=("from_node", "from_socket", "to_node", "to_socket"))),
}, required=("nodes", "links"))
MAX_GRAPH_NODES = 256


def graph_summary(mat):
    """Node names and types, and links, sorted (names, then (to node, to socket, from node))."""
    tree = mat.node_tree
    if tree is None:
        return {"nodes": [], "links": []}
    nodes = sorted(({"name": n.name, "type": n.bl_idname} for n in tree.nodes), key=lambda r: r["name"])[:MAX_GRAPH_NODES]
    links = sorted(({"from_node": l.from_node.name, "from_socket": l.from_socket.name, "to_node": l.to_node.name,
                     "to_socket": l.to_socket.name} for l in tree.links),
                   key=lambda r: (r["to_node"], r["to_socket"], r["from_node"]))[:4 * MAX_GRAPH_NODES]
    return {"nodes": nodes, "links": links}


NULL_NUMBER = s.nullable(s.number())
SURFACE_NODE = s.obj({
    "name": s.string(), "type": s.string(description="The node's bl_idname, e.g. ShaderNodeEmission"),
    "inputs": s.obj({}, additional=s.any_value(), description="Unlinked inputs by name: a number or a list of numbers"),
    "linked_inputs": s.array(s.string(), max_items=MAX_NODE_INPUTS),
}, required=("name", "type", "inputs", "linked_inputs"))
MATERIAL_ROW = s.obj({
    "name": s.string(), "users": s.integer(0), "objects": s.array(s.string()), "base_color": s.ref("rgba"),
    "metallic": s.number(), "roughness": s.number(), "principled": s.boolean(), "nodes": s.integer(0),
    "transmission": NULL_NUMBER, "ior": NULL_NUMBER, "emission_color": s.nullable(s.vector(4)),
    "emission_strength": NULL_NUMBER, "alpha": NULL_NUMBER, "subsurface": NULL_NUMBER, "coat": NULL_NUMBER,
    "sheen": NULL_NUMBER,
    "linked_inputs": s.array(s.string(), max_items=MAX_NODE_INPUTS,
                             description="Principled inputs driven by a link: their value here is the unlinked default"),
    "surface": s.array(SURFACE_NODE, max_items=MAX_SURFACE_NODES,
                       description="Shader nodes feeding the output's Surface (through mix/add shaders)"),
    "preset": s.nullable(s.string()), "graph": GRAPH,
}, required=("name", "users", "objects", "base_color", "metallic", "roughness", "principled", "nodes", "transmission",
             "ior", "emission_color", "emission_strength", "alpha", "subsurface", "coat", "sheen", "linked_inputs",
             "surface", "preset"))


@command(
    effect="read",
    summary="Materials with their Principled BSDF inputs by name (or the shaders they have instead) and their users; of one object, or all.",
    params=s.obj({
        "object": OBJECT,
        "material": s.ref("datablock_name"),
        "include_unassigned": s.boolean(description="Also materials no object uses (default true when no object is given)"),
        "include_graph": s.boolean(description="Add each material's node names, types and links"),
        "limit": s.integer(1, 500),
    }),
    result=s.obj({"materials": s.array(MATERIAL_ROW), "total": s.integer(0), "truncated": s.boolean()},
                 required=("materials", "total", "truncated")),
    errors=("not_found",),
)
def list_materials(ctx, params):
    users = {}
    for obj in bpy.data.objects:
        for sl in obj.material_slots:
            if sl.material is not None:
                users.setdefault(sl.material.name, set()).add(obj.name)
    if "object" in params:
        obj = get_object(params["object"])
        names = [sl.material.name for sl in obj.material_slots if sl.material is not None]
        mats = [bpy.data.materials[n] for n in dict.fromkeys(names)]
    else:
        mats = list(bpy.data.materials)
    if "material" in params:
        mats = [m for m in mats if m.name == params["material"]]
        if not mats and params["material"] not in bpy.data.materials:
            raise not_found("material", params["material"])
    if not params.get("include_unassigned", "object" not in params):
        mats = [m for m in mats if m.name in users]
    mats.sort(key=lambda m: m.name)
    limit = params.get("limit", 100)
    rows = []
    for mat in mats[:limit]:
        row = {"name": mat.name, "users": mat.users, "objects": sorted(users.get(mat.name, ())),
               "nodes": len(mat.node_tree.nodes) if mat.node_tree else 0, "preset": mat.get("capstan_preset")}
        row.update(_bsdf_values(mat))
        if params.get("include_graph"):
            row["graph"] = graph_summary(mat)
        rows.append(row)
    return {"materials": rows, "total": len(mats), "truncated": len(mats) > limit}
