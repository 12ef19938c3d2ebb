"""A material's shader graph: read it, and edit it with an allowlisted set of node types.

No Script (OSL) node, no node that reads a file or another datablock by path (IES,
point density), no group nodes: the graph can only be built from the nodes below.
Images are bound through `bind_image_texture`, whose files come from the read roots.
"""

import math

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, not_found
from .common import rounded, socket_names
from .shading import SAFE_NAME, get_material, tree_of

NODE_TYPES = (
    # shaders
    "ShaderNodeBsdfPrincipled", "ShaderNodeBsdfDiffuse", "ShaderNodeBsdfAnisotropic", "ShaderNodeBsdfMetallic", "ShaderNodeBsdfGlass",
    "ShaderNodeBsdfRefraction", "ShaderNodeBsdfTranslucent", "ShaderNodeBsdfTransparent", "ShaderNodeBsdfSheen",
    "ShaderNodeEmission", "ShaderNodeMixShader", "ShaderNodeAddShader", "ShaderNodeSubsurfaceScattering",
    "ShaderNodeVolumePrincipled", "ShaderNodeVolumeAbsorption", "ShaderNodeVolumeScatter", "ShaderNodeHoldout",
    # textures
    "ShaderNodeTexNoise", "ShaderNodeTexVoronoi", "ShaderNodeTexWave", "ShaderNodeTexMagic", "ShaderNodeTexGradient",
    "ShaderNodeTexChecker", "ShaderNodeTexBrick", "ShaderNodeTexWhiteNoise",
    # colour
    "ShaderNodeMix", "ShaderNodeValToRGB", "ShaderNodeHueSaturation", "ShaderNodeBrightContrast", "ShaderNodeGamma",
    "ShaderNodeInvert", "ShaderNodeRGBToBW", "ShaderNodeBlackbody",
    # converters
    "ShaderNodeMath", "ShaderNodeVectorMath", "ShaderNodeMapRange", "ShaderNodeClamp", "ShaderNodeSeparateXYZ",
    "ShaderNodeCombineXYZ", "ShaderNodeSeparateColor", "ShaderNodeCombineColor",
    # vectors
    "ShaderNodeMapping", "ShaderNodeBump", "ShaderNodeNormalMap", "ShaderNodeDisplacement", "ShaderNodeVectorRotate",
    # inputs
    "ShaderNodeTexCoord", "ShaderNodeUVMap", "ShaderNodeRGB", "ShaderNodeValue", "ShaderNodeFresnel",
    "ShaderNodeLayerWeight", "ShaderNodeLightPath", "ShaderNodeObjectInfo", "ShaderNodeNewGeometry",
    "ShaderNodeAmbientOcclusion",
    # output
    "ShaderNodeOutputMaterial",
)
OPS = ("add_node", "remove_node", "connect", "disconnect", "set_input", "set_property")
MAX_NODES = 256
SOCKET = s.one_of(s.string(1, 64), s.integer(0, 64), description="Socket name or index")
VALUE = s.one_of(s.number(), s.boolean(), s.array(s.number(), 2, 4), description="A number, a boolean, or 2-4 numbers")


def _node(tree, name):
    node = tree.nodes.get(name)
    if node is None:
        raise not_found("node", name)
    return node


def _socket(sockets, ref, what):
    if isinstance(ref, int):
        if ref >= len(sockets):
            raise not_found(what, ref)
        return sockets[ref]
    for name in socket_names(ref):
        for sock in sockets:
            if sock.identifier == name and sock.enabled:
                return sock
        for sock in sockets:
            if sock.name == name and sock.enabled:
                return sock
    raise not_found(what, ref)


def _value(sock):
    if not hasattr(sock, "default_value"):
        return None
    v = sock.default_value
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return round(v, 5)
    try:
        return rounded(v)
    except TypeError:
        return None


SOCKET_ROW = s.obj({"name": s.string(), "identifier": s.string(), "type": s.string(), "linked": s.boolean(),
                    "value": s.any_value()}, required=("name", "identifier", "type", "linked"))
NODE_ROW = s.obj({
    "name": s.string(), "type": s.string(), "location": s.array(s.number(), 2, 2),
    "inputs": s.array(SOCKET_ROW), "outputs": s.array(s.string()),
}, required=("name", "type", "location", "inputs", "outputs"))
LINK_ROW = s.obj({"from_node": s.string(), "from_socket": s.string(), "to_node": s.string(), "to_socket": s.string()},
                 required=("from_node", "from_socket", "to_node", "to_socket"))


@command(
    effect="read",
    summary="A material's shader graph: nodes (type, location, inputs with values and links, outputs) and links.",
    params=s.obj({"material": s.ref("datablock_name")}, required=("material",)),
    result=s.obj({"material": s.string(), "nodes": s.array(NODE_ROW), "links": s.array(LINK_ROW), "truncated": s.boolean()},
                 required=("material", "nodes", "links", "truncated")),
    errors=("not_found",),
)
def shader_graph_info(ctx, params):
    mat = get_material(params["material"])
    tree = mat.node_tree
    nodes = list(tree.nodes) if tree is not None else []
    rows = []
    for node in sorted(nodes, key=lambda n: n.name)[:MAX_NODES]:
        inputs = []
        for sock in node.inputs:
            if not sock.enabled:
                continue
            row = {"name": sock.name, "identifier": sock.identifier, "type": sock.type, "linked": sock.is_linked}
            value = _value(sock)
            if value is not None:
                row["value"] = value
            inputs.append(row)
        rows.append({"name": node.name, "type": node.bl_idname, "location": rounded(node.location, 1),
                     "inputs": inputs, "outputs": [o.name for o in node.outputs if o.enabled]})
    links = sorted(({"from_node": l.from_node.name, "from_socket": l.from_socket.name, "to_node": l.to_node.name,
                     "to_socket": l.to_socket.name} for l in (tree.links if tree else ())),
                   key=lambda r: (r["to_node"], r["to_socket"], r["from_node"]))
    return {"material": mat.name, "nodes": rows, "links": links, "truncated": len(nodes) > MAX_NODES}


def _set_input(sock, value):
    if not hasattr(sock, "default_value"):
        raise CommandError("invalid_params", "input %r (%s) takes a link, not a value" % (sock.name, sock.type))
    current = sock.default_value
    prop = sock.bl_rna.properties["default_value"]
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise CommandError("invalid_params", "input %r is a boolean" % sock.name)
    elif isinstance(current, (int, float)):
        if isinstance(value, (bool, list)):
            raise CommandError("invalid_params", "input %r takes one number" % sock.name)
        value = [value]
    else:
        if not isinstance(value, list):
            raise CommandError("invalid_params", "input %r takes %d numbers" % (sock.name, len(current)))
        if len(value) == 3 and len(current) == 4 and sock.type == "RGBA":
            value = list(value) + [1.0]
        if len(value) != len(current):
            raise CommandError("invalid_params", "input %r takes %d numbers" % (sock.name, len(current)))
    if not isinstance(value, bool):
        lo, hi = prop.hard_min, prop.hard_max
        # Blender does not clamp socket values set from Python: factor and colour
        # sockets are 0..1 by their type, the others by their RNA range.
        if sock.bl_idname.startswith("NodeSocketFloatFactor") or sock.type == "RGBA":
            lo, hi = max(lo, 0.0), min(hi, 1.0)
        for v in value:
            if not (isinstance(v, (int, float)) and math.isfinite(v) and lo <= v <= hi):
                raise CommandError("invalid_params", "%s of input %r is outside %g..%g" % (v, sock.name, lo, hi))
        value = value[0] if isinstance(current, (int, float)) else value
        if isinstance(current, int) and not isinstance(current, bool):
            value = int(value)
    sock.default_value = value


def _set_property(node, name, value):
    """An enum, boolean or number property of the node (never a string, pointer or file)."""
    prop = node.bl_rna.properties.get(name)
    if prop is None or name.startswith("bl_") or prop.is_readonly or prop.type not in ("ENUM", "BOOLEAN", "INT", "FLOAT") \
            or getattr(prop, "array_length", 0) or getattr(prop, "is_enum_flag", False):
        raise CommandError("invalid_target", "node %r has no settable enum/boolean/number property %r" % (node.name, name))
    if prop.type == "ENUM":
        items = [i.identifier for i in prop.enum_items]
        if value not in items:
            raise CommandError("invalid_params", "%r of node %r is one of %s" % (name, node.name, ", ".join(items)))
    elif prop.type == "BOOLEAN":
        if not isinstance(value, bool):
            raise CommandError("invalid_params", "%r of node %r is a boolean" % (name, node.name))
    else:
        if isinstance(value, (bool, str, list)) or not prop.hard_min <= value <= prop.hard_max:
            raise CommandError("invalid_params", "%r of node %r is a number in %g..%g" % (name, node.name, prop.hard_min, prop.hard_max))
        value = int(value) if prop.type == "INT" else value
    setattr(node, name, value)


@command(
    effect="mutate",
    summary="Edit a material's shader graph: add (allowlisted types) or remove a node, connect or disconnect sockets, set an input value or a node's enum/number property.",
    params=s.obj({
        "material": s.ref("datablock_name"),
        "op": s.enum(OPS),
        "node_type": s.enum(NODE_TYPES),
        "node": SAFE_NAME,
        "name": SAFE_NAME,
        "location": s.array(s.number(-100000, 100000), 2, 2),
        "from_node": SAFE_NAME, "from_socket": SOCKET,
        "to_node": SAFE_NAME, "to_socket": SOCKET,
        "input": SOCKET,
        "property": s.string(1, 64, pattern=r"^[a-z][a-z0-9_]*$"),
        "value": s.one_of(VALUE, s.string(1, 64)),
    }, required=("material", "op")),
    result=s.obj({"material": s.string(), "op": s.enum(OPS), "node": s.nullable(s.string()), "links": s.integer(0),
                  "nodes": s.integer(0)}, required=("material", "op", "node", "links", "nodes")),
    errors=("not_found", "invalid_target", "invalid_params", "unsupported", "limit_exceeded"),
)
def shader_graph_edit(ctx, params):
    mat = get_material(params["material"])
    if mat.node_tree is None:  # Blender < 5.0, a material without nodes yet
        ctx.delta.touch_datablock("materials", mat)
    tree = tree_of(mat)
    op = params["op"]

    def need(*keys):
        missing = [k for k in keys if k not in params]
        if missing:
            raise CommandError("invalid_params", "op %s needs %s" % (op, ", ".join(missing)))

    touched = None
    if op == "add_node":
        need("node_type")
        if not hasattr(bpy.types, params["node_type"]):
            raise CommandError("unsupported", "this Blender has no %s node" % params["node_type"])
        if len(tree.nodes) >= MAX_NODES:
            raise CommandError("limit_exceeded", "a material holds at most %d nodes here" % MAX_NODES)
        ctx.delta.touch_datablock("materials", mat)
        node = tree.nodes.new(params["node_type"])
        if "name" in params:
            node.name = params["name"]
        node.location = params.get("location", (0.0, 0.0))
        touched = node.name
    elif op == "remove_node":
        need("node")
        node = _node(tree, params["node"])
        ctx.delta.touch_datablock("materials", mat)
        tree.nodes.remove(node)
        touched = params["node"]
    elif op == "connect":
        need("from_node", "from_socket", "to_node", "to_socket")
        src = _socket(_node(tree, params["from_node"]).outputs, params["from_socket"], "output socket")
        dst = _socket(_node(tree, params["to_node"]).inputs, params["to_socket"], "input socket")
        if src.node == dst.node:
            raise CommandError("invalid_params", "a node cannot feed itself")
        ctx.delta.touch_datablock("materials", mat)
        link = tree.links.new(src, dst)
        if not link.is_valid:
            tree.links.remove(link)
            raise CommandError("invalid_params", "%s.%s cannot feed %s.%s (a loop or incompatible sockets)" % (
                src.node.name, src.name, dst.node.name, dst.name))
        touched = dst.node.name
    elif op == "disconnect":
        need("to_node", "to_socket")
        dst = _socket(_node(tree, params["to_node"]).inputs, params["to_socket"], "input socket")
        links = [l for l in dst.links if "from_node" not in params or l.from_node.name == params["from_node"]]
        if not links:
            raise CommandError("not_found", "nothing is connected to %s.%s" % (dst.node.name, dst.name))
        ctx.delta.touch_datablock("materials", mat)
        for l in links:
            tree.links.remove(l)
        touched = dst.node.name
    elif op == "set_input":
        need("node", "input", "value")
        node = _node(tree, params["node"])
        sock = _socket(node.inputs, params["input"], "input socket")
        if isinstance(params["value"], str):
            raise CommandError("invalid_params", "an input value is a number, a boolean or a list of numbers")
        ctx.delta.touch_datablock("materials", mat)
        _set_input(sock, params["value"])
        touched = node.name
    elif op == "set_property":
        need("node", "property", "value")
        node = _node(tree, params["node"])
        ctx.delta.touch_datablock("materials", mat)
        _set_property(node, params["property"], params["value"])
        touched = node.name
    return {"material": mat.name, "op": op, "node": touched, "links": len(tree.links), "nodes": len(tree.nodes)}
