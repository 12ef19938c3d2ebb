"""The compositor graph: read it, edit it with allowlisted nodes, or insert a preset
chain before the output. One command surface over the two compositor APIs:

- Blender 5.0 and newer: the scene's compositing node group
  (`scene.compositing_node_group`), a `node_groups` datablock whose Group Output is the
  output;
- Blender 4.5 LTS: the tree embedded in the scene (`scene.use_nodes`,
  `scene.node_tree`), whose Composite node is the output. No datablock holds it, so the
  delta reports its changes in the render domain (`delta/fingerprint.py`), as it does
  the scene's choice of compositor in both.

A new graph is Render Layers feeding the output in both, so presets build the same
chains. A menu input of 5.0 that is still a node property in 4.5 (Glare's Type) is set
through that property; an allowlisted node type this Blender lacks (Gamma from 5.0 on)
answers `unsupported` naming the version.

No File Output node (it writes files anywhere), no Image or Movie Clip node (they read
files by path): the graph only transforms the render.
"""

import math

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, not_found
from . import scene_compositor
from .common import rounded, scene, socket_names
from .shading import SAFE_NAME
from .shader_graph import SOCKET

NODE_TYPES = (
    "CompositorNodeRLayers", "CompositorNodeGlare", "CompositorNodeDenoise", "CompositorNodeColorBalance",
    "CompositorNodeEllipseMask", "CompositorNodeBoxMask", "CompositorNodeBlur", "CompositorNodeBokehBlur",
    "CompositorNodeDefocus", "CompositorNodeExposure", "CompositorNodeGamma", "CompositorNodeHueSat",
    "CompositorNodeBrightContrast", "CompositorNodeInvert", "CompositorNodeCurveRGB", "CompositorNodeLensdist",
    "CompositorNodeTonemap", "CompositorNodeAlphaOver", "CompositorNodeSetAlpha", "CompositorNodeRGBToBW",
    "CompositorNodeViewer", "ShaderNodeMix", "ShaderNodeMath", "ShaderNodeValue", "CompositorNodeRGB",
)
PRESETS = ("bloom", "vignette", "glare", "denoise", "color_balance")
OPS = ("add_node", "remove_node", "connect", "disconnect", "set_input", "preset")
MAX_NODES = 128
TREE_NAME = "Compositing"
# The node a graph's result leaves through: a node group's Group Output (5.0+), the
# embedded tree's Composite node (4.5); scene_compositor knows which.
OUTPUT_TYPES = scene_compositor.OUTPUT_TYPES
# Menu inputs of 5.0 that 4.5 keeps as node properties, whose items carry the same names.
MENU_PROPERTIES = {
    ("CompositorNodeGlare", "Type"): "glare_type",
    ("CompositorNodeGlare", "Quality"): "quality",
    ("CompositorNodeBlur", "Type"): "filter_type",
    ("CompositorNodeTonemap", "Type"): "tonemap_type",
    ("CompositorNodeLensdist", "Type"): "distortion_type",
    ("CompositorNodeColorBalance", "Type"): "correction_method",
    ("CompositorNodeDenoise", "Prefilter"): "prefilter",
    ("CompositorNodeDenoise", "Quality"): "quality",
    ("CompositorNodeEllipseMask", "Operation"): "mask_type",
    ("CompositorNodeBoxMask", "Operation"): "mask_type",
    ("CompositorNodeSetAlpha", "Type"): "mode",
}


def _node_groups_api():
    return scene_compositor.uses_node_group(scene())


graph_tree = scene_compositor.tree


def _output(tree):
    return next((n for n in tree.nodes if n.bl_idname in OUTPUT_TYPES), None)


def _tree(ctx):
    """The scene's compositor tree, tracked; a new one (Render Layers to the output) if
    none. Returns (tree, made): `made` when this call created it."""
    sc = scene()
    if _node_groups_api():
        tree = sc.compositing_node_group
        if tree is not None:
            return ctx.delta.touch_datablock("node_groups", tree), False
        ctx.delta.touch_settings("render")
        tree = ctx.delta.created_datablock("node_groups", bpy.data.node_groups.new(TREE_NAME, "CompositorNodeTree"))
        tree.interface.new_socket("Image", in_out="OUTPUT", socket_type="NodeSocketColor")
        layers = tree.nodes.new("CompositorNodeRLayers")
        out = tree.nodes.new(scene_compositor.output_type(sc))
        sc.compositing_node_group = tree
    else:
        ctx.delta.touch_settings("render")
        tree = scene_compositor.tree(sc)
        if tree is not None:
            return tree, False
        tree, fresh = scene_compositor.use_embedded_tree(sc)
        if not fresh:
            return tree, True  # the scene's own tree, switched back on as it was
        # Blender's default tree adds a Reroute and a Viewer; the graph starts as in 5.0.
        for node in list(tree.nodes):
            tree.nodes.remove(node)
        layers = tree.nodes.new("CompositorNodeRLayers")
        out = tree.nodes.new(scene_compositor.output_type(sc))
    layers.location = (-400, 0)
    out.location = (400, 0)
    tree.links.new(layers.outputs["Image"], out.inputs["Image"])
    return tree, True


def _undo_new_tree(ctx, tree):
    """Take back a graph `_tree` just made (a refused edit changes nothing)."""
    sc = scene()
    if _node_groups_api():
        sc.compositing_node_group = None
        ctx.delta.removing_datablock("node_groups", tree)
        bpy.data.node_groups.remove(tree)
    else:
        scene_compositor.stop_embedded_tree(sc)


def _new_node(tree, node_type):
    try:
        return tree.nodes.new(node_type)
    except RuntimeError:
        raise CommandError("unsupported", "%s is not a compositor node in Blender %s" % (node_type, bpy.app.version_string))


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
    summary="The scene's compositor graph (its node group from Blender 5.0, its node tree in 4.5): nodes with their sockets, and links; no tree is null.",
    params=s.obj({}),
    result=GRAPH,
    errors=("unsupported",),
)
def compositor_graph_info(ctx, params):
    return _summary(graph_tree(scene()))


def _socket(sockets, ref, what):
    if isinstance(ref, int):
        if ref >= len(sockets):
            raise not_found(what, ref)
        return sockets[ref]
    for name in socket_names(ref):
        for sock in sockets:
            if sock.enabled and (sock.identifier == name or sock.name == name):
                return sock
    raise not_found(what, ref)


def _menu_property(node, ref):
    """The 4.5 property that stands for 5.0's menu input `ref` of `node`, or None."""
    prop = MENU_PROPERTIES.get((node.bl_idname, ref)) if isinstance(ref, str) else None
    return prop if prop is not None and hasattr(node, prop) else None


def _input(node, ref):
    """A settable input: a socket, or (4.5) the property behind a 5.0 menu input."""
    try:
        return _socket(node.inputs, ref, "input socket")
    except CommandError:
        if _menu_property(node, ref) is None:
            raise
        return None


def _set_menu_property(node, ref, value):
    prop = _menu_property(node, ref)
    items = node.bl_rna.properties[prop].enum_items
    match = next((i.identifier for i in items if isinstance(value, str) and value in (i.name, i.identifier)), None)
    if match is None:
        raise CommandError("invalid_params", "%r is not one of %s's %s (%s)" % (value, node.name, ref, ", ".join(i.name for i in items)))
    setattr(node, prop, match)


def _set_input(node, ref, value):
    sock = _input(node, ref)
    if sock is None:
        _set_menu_property(node, ref, value)
    else:
        _set(sock, value)


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
        raise CommandError("invalid_params", "the compositor tree has no output node (Group Output, or Composite before Blender 5.0) to insert before")
    x = out.location.x
    out.location.x = x + 300
    if name in ("bloom", "glare"):
        glare = tree.nodes.new("CompositorNodeGlare")
        glare.name = "capstan_" + name
        _set_input(glare, "Type", "Bloom" if name == "bloom" else "Fog Glow")
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
    summary="Edit the compositor graph: add allowlisted nodes, remove, connect, disconnect, set an input, or insert a preset (bloom, vignette, glare, denoise, color balance) before the output.",
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
    op = params["op"]
    need = {"preset": ("preset",), "add_node": ("node_type",), "remove_node": ("node",),
            "connect": ("from_node", "from_socket", "to_node", "to_socket"), "disconnect": ("to_node", "to_socket"),
            "set_input": ("node", "input", "value")}[op]
    missing = [k for k in need if k not in params]
    if missing:
        raise CommandError("invalid_params", "op %s needs %s" % (op, ", ".join(missing)))
    existing = graph_tree(scene())
    if op != "preset" and op != "add_node" and existing is None:
        raise CommandError("not_found", "the scene has no compositor graph yet, so no node to %s; add a node or a preset first" % op.replace("_", " "))
    # Check names before the tree is touched, so a refusal changes nothing.
    if existing is not None:
        for key in ("node", "from_node", "to_node"):
            if key in params:
                _node(existing, params[key])
        if len(existing.nodes) >= MAX_NODES and op in ("add_node", "preset"):
            raise CommandError("limit_exceeded", "the compositor holds at most %d nodes here" % MAX_NODES)
    if op == "set_input":
        _input(existing.nodes[params["node"]], params["input"])
    tree, made = _tree(ctx)
    touched = None
    if op == "preset":
        touched = _preset(tree, params["preset"])
    elif op == "add_node":
        try:
            node = _new_node(tree, params["node_type"])
        except CommandError:
            if made:
                _undo_new_tree(ctx, tree)
            raise
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
            raise CommandError("not_found", "nothing is connected to %s.%s" % (dst.node.name, dst.name))
        for l in links:
            tree.links.remove(l)
        touched = dst.node.name
    else:
        node = tree.nodes[params["node"]]
        _set_input(node, params["input"], params["value"])
        touched = node.name
    return {"op": op, "node": touched, "graph": _summary(tree)}
