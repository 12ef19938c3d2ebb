"""The compositor graph (Blender 5.0+: the scene's compositing node group): read it,
edit it with allowlisted nodes, or insert a preset chain before the output.

No File Output node (it writes files anywhere), no Image or Movie Clip node (they read
files by path): the graph only transforms the render. Before 5.0 the compositor is an
embedded scene tree the delta cannot track: the commands answer `unsupported` there.
"""

import math

import bpy

from .. import schema as s
from ..command import command
from ..errors import CommandError, not_found
from .common import rounded, scene
from .shading import SAFE_NAME
from .shader_graph import SOCKET

NODE_TYPES = (
    "CompositorNodeRLayers", "CompositorNodeGlare", "CompositorNodeDenoise", "CompositorNodeColorBalance",
    "CompositorNodeEllipseMask", "CompositorNodeBoxMask", "CompositorNodeBlur", "CompositorNodeBokehBlur",
    "CompositorNodeDefocus", "CompositorNodeExposure", "CompositorNodeGamma", "CompositorNodeHueSat",
    "CompositorNodeBrightContrast", "CompositorNodeInvert", "CompositorNodeCurveRGB", "CompositorNodeLensdist",
    "CompositorNodeTonemap", "CompositorNodeAlphaOver", "CompositorNodeSetAlpha", "CompositorNodeRGBToBW",
    "CompositorNodeViewer", "ShaderNodeMix", "ShaderNodeMath", "ShaderNodeValue", "ShaderNodeRGB",
)
PRESETS = ("bloom", "vignette", "glare", "denoise", "color_balance")
OPS = ("add_node", "remove_node", "connect", "disconnect", "set_input", "preset")
MAX_NODES = 128
TREE_NAME = "Compositing"


def _supported():
    if not hasattr(scene(), "compositing_node_group"):
        raise CommandError("unsupported", "the compositor commands need Blender 5.0 or newer")


def _output(tree):
    return next((n for n in tree.nodes if n.bl_idname == "NodeGroupOutput"), None)


def _tree(ctx):
    """The scene's compositor tree, tracked; a new one (Render Layers to the output) if none."""
    sc = scene()
    tree = sc.compositing_node_group
    if tree is not None:
        return ctx.delta.touch_datablock("node_groups", tree)
    tree = ctx.delta.created_datablock("node_groups", bpy.data.node_groups.new(TREE_NAME, "CompositorNodeTree"))
    tree.interface.new_socket("Image", in_out="OUTPUT", socket_type="NodeSocketColor")
    layers = tree.nodes.new("CompositorNodeRLayers")
    layers.location = (-400, 0)
    out = tree.nodes.new("NodeGroupOutput")
    out.location = (400, 0)
    tree.links.new(layers.outputs["Image"], out.inputs["Image"])
    sc.compositing_node_group = tree
    return tree


def _summary(tree):
    if tree is None:
        return {"tree": None, "nodes": [], "links": []}
    nodes = [{"name": n.name, "type": n.bl_idname, "location": rounded(n.location, 1),
              "inputs": [i.name for i in n.inputs if i.enabled and i.name], "outputs": [o.name for o in n.outputs if o.enabled and o.name]}
             for n in sorted(tree.nodes, key=lambda n: n.name)[:MAX_NODES]]
    links = sorted(({"from_node": l.from_node.name, "from_socket": l.from_socket.name, "to_node": l.to_node.name,
                     "to_socket": l.to_socket.name} for l in tree.links), key=lambda r: (r["to_node"], r["to_socket"], r["from_node"]))
    return {"tree": tree.name, "nodes": nodes, "links": links}


GRAPH = s.obj({
    "tree": s.nullable(s.string()),
    "nodes": s.array(s.obj({"name": s.string(), "type": s.string(), "location": s.array(s.number(), 2, 2),
                            "inputs": s.array(s.string()), "outputs": s.array(s.string())},
                           required=("name", "type", "location", "inputs", "outputs"))),
    "links": s.array(s.obj({"from_node": s.string(), "from_socket": s.string(), "to_node": s.string(), "to_socket": s.string()},
                           required=("from_node", "from_socket", "to_node", "to_socket"))),
}, required=("tree", "nodes", "links"))


@command(
    effect="read",
    summary="The scene's compositor graph (Blender 5.0+): nodes with their sockets, and links; no tree is null.",
    params=s.obj({}),
    result=GRAPH,
    errors=("unsupported",),
)
def compositor_graph_info(ctx, params):
    _supported()
    return _summary(scene().compositing_node_group)


def _socket(sockets, ref, what):
    if isinstance(ref, int):
        if ref >= len(sockets):
            raise not_found(what, ref)
        return sockets[ref]
    for sock in sockets:
        if sock.enabled and (sock.identifier == ref or sock.name == ref):
            return sock
    raise not_found(what, ref)


def _node(tree, name):
    node = tree.nodes.get(name)
    if node is None:
        raise not_found("compositor node", name)
    return node


def _set(sock, value):
    """A socket's value: a menu item by name, a boolean, a number, or 2-4 numbers."""
    if not hasattr(sock, "default_value"):
        raise CommandError("invalid_params", "input %r takes a link, not a value" % sock.name)
    current = sock.default_value
    ok = (sock.type == "MENU" and isinstance(value, str)) or (isinstance(current, bool) and isinstance(value, bool)) \
        or (isinstance(current, (int, float)) and not isinstance(current, bool) and isinstance(value, (int, float)) and not isinstance(value, bool)) \
        or (not isinstance(current, (bool, int, float, str)) and isinstance(value, list) and len(value) in (len(current), len(current) - 1))
    if not ok or (isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isfinite(value)):
        raise CommandError("invalid_params", "%r does not fit input %r (%s)" % (value, sock.name, sock.type))
    if isinstance(value, list):
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in value):
            raise CommandError("invalid_params", "input %r takes finite numbers" % sock.name)
        if len(value) == len(current) - 1:
            value = list(value) + [1.0]
    try:
        sock.default_value = int(value) if isinstance(current, int) and not isinstance(current, bool) else value
    except TypeError as e:
        raise CommandError("invalid_params", "input %r: %s" % (sock.name, e))


def _insert_chain(tree, out, nodes_and_links):
    """Put a chain before the output: what fed the output's Image now feeds the chain."""
    feed = out.inputs["Image"].links[0].from_socket if out.inputs["Image"].is_linked else None
    first_in, last_out = nodes_and_links
    if feed is not None:
        tree.links.new(feed, first_in)
    tree.links.new(last_out, out.inputs["Image"])


def _preset(tree, name):
    out = _output(tree)
    if out is None:
        raise CommandError("invalid_params", "the compositor tree has no Group Output to insert before")
    x = out.location.x
    out.location.x = x + 300
    if name in ("bloom", "glare"):
        glare = tree.nodes.new("CompositorNodeGlare")
        glare.name = "capstan_" + name
        glare.inputs["Type"].default_value = "Bloom" if name == "bloom" else "Fog Glow"
        glare.location = (x, 0)
        _insert_chain(tree, out, (glare.inputs["Image"], glare.outputs["Image"]))
        return glare.name
    if name == "denoise":
        node = tree.nodes.new("CompositorNodeDenoise")
        node.name, node.location = "capstan_denoise", (x, 0)
        _insert_chain(tree, out, (node.inputs["Image"], node.outputs["Image"]))
        return node.name
    if name == "color_balance":
        node = tree.nodes.new("CompositorNodeColorBalance")
        node.name, node.location = "capstan_color_balance", (x, 0)
        _insert_chain(tree, out, (node.inputs["Image"], node.outputs["Image"]))
        return node.name
    # vignette: the image multiplied by a soft ellipse.
    mask = tree.nodes.new("CompositorNodeEllipseMask")
    mask.name, mask.location = "capstan_vignette_mask", (x - 300, -250)
    mask.inputs["Size"].default_value = (0.85, 0.85)
    blur = tree.nodes.new("CompositorNodeBlur")
    blur.name, blur.location = "capstan_vignette_blur", (x - 150, -250)
    blur.inputs["Size"].default_value = (40.0, 40.0)
    tree.links.new(mask.outputs["Mask"], blur.inputs["Image"])
    mix = tree.nodes.new("ShaderNodeMix")
    mix.name, mix.location = "capstan_vignette", (x, 0)
    mix.data_type, mix.blend_type = "RGBA", "MULTIPLY"
    mix.inputs["Factor"].default_value = 1.0
    a = next(i for i in mix.inputs if i.name == "A" and i.enabled)
    b = next(i for i in mix.inputs if i.name == "B" and i.enabled)
    result = next(o for o in mix.outputs if o.name == "Result" and o.enabled)
    tree.links.new(blur.outputs["Image"], b)
    _insert_chain(tree, out, (a, result))
    return mix.name


@command(
    effect="mutate",
    summary="Edit the compositor graph (Blender 5.0+): add allowlisted nodes, remove, connect, disconnect, set an input, or insert a preset (bloom, vignette, glare, denoise, color balance) before the output.",
    params=s.obj({
        "op": s.enum(OPS),
        "preset": s.enum(PRESETS),
        "node_type": s.enum(NODE_TYPES),
        "node": SAFE_NAME,
        "name": SAFE_NAME,
        "location": s.array(s.number(-100000, 100000), 2, 2),
        "from_node": SAFE_NAME, "from_socket": SOCKET,
        "to_node": SAFE_NAME, "to_socket": SOCKET,
        "input": SOCKET,
        "value": s.one_of(s.number(), s.boolean(), s.array(s.number(), 2, 4), s.string(1, 64)),
    }, required=("op",)),
    result=s.obj({"op": s.enum(OPS), "node": s.nullable(s.string()), "graph": GRAPH}, required=("op", "node", "graph")),
    errors=("unsupported", "not_found", "invalid_params", "limit_exceeded"),
)
def compositor_graph_edit(ctx, params):
    _supported()
    op = params["op"]
    need = {"preset": ("preset",), "add_node": ("node_type",), "remove_node": ("node",),
            "connect": ("from_node", "from_socket", "to_node", "to_socket"), "disconnect": ("to_node", "to_socket"),
            "set_input": ("node", "input", "value")}[op]
    missing = [k for k in need if k not in params]
    if missing:
        raise CommandError("invalid_params", "op %s needs %s" % (op, ", ".join(missing)))
    existing = scene().compositing_node_group
    if op != "preset" and op != "add_node" and existing is None:
        raise CommandError("invalid_params", "the scene has no compositor graph yet; add a node or a preset first")
    # Check names before the tree is touched, so a refusal changes nothing.
    if existing is not None:
        for key in ("node", "from_node", "to_node"):
            if key in params:
                _node(existing, params[key])
        if len(existing.nodes) >= MAX_NODES and op in ("add_node", "preset"):
            raise CommandError("limit_exceeded", "the compositor holds at most %d nodes here" % MAX_NODES)
    if op == "set_input":
        _socket(existing.nodes[params["node"]].inputs, params["input"], "input socket")
    tree = _tree(ctx)
    touched = None
    if op == "preset":
        touched = _preset(tree, params["preset"])
    elif op == "add_node":
        node = tree.nodes.new(params["node_type"])
        if "name" in params:
            node.name = params["name"]
        node.location = params.get("location", (0.0, 0.0))
        touched = node.name
    elif op == "remove_node":
        tree.nodes.remove(tree.nodes[params["node"]])
        touched = params["node"]
    elif op == "connect":
        src = _socket(tree.nodes[params["from_node"]].outputs, params["from_socket"], "output socket")
        dst = _socket(tree.nodes[params["to_node"]].inputs, params["to_socket"], "input socket")
        if src.node == dst.node:
            raise CommandError("invalid_params", "a node cannot feed itself")
        link = tree.links.new(src, dst)
        if not link.is_valid:
            tree.links.remove(link)
            raise CommandError("invalid_params", "%s.%s cannot feed %s.%s" % (src.node.name, src.name, dst.node.name, dst.name))
        touched = dst.node.name
    elif op == "disconnect":
        dst = _socket(tree.nodes[params["to_node"]].inputs, params["to_socket"], "input socket")
        links = [l for l in dst.links if "from_node" not in params or l.from_node.name == params["from_node"]]
        if not links:
            raise CommandError("invalid_params", "nothing is connected to %s.%s" % (dst.node.name, dst.name))
        for l in links:
            tree.links.remove(l)
        touched = dst.node.name
    else:
        node = tree.nodes[params["node"]]
        _set(_socket(node.inputs, params["input"], "input socket"), params["value"])
        touched = node.name
    return {"op": op, "node": touched, "graph": _summary(tree)}
