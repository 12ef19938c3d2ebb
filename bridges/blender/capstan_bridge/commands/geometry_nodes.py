"""Geometry Nodes graphs: add a nodes modifier with its own graph, then add, connect,
set and remove nodes by name, and read the graph back.

Node types are allowlisted: geometry and function nodes and the shader math/texture
nodes Geometry Nodes evaluates, never nodes that read or write files (importers,
bakes), tools, or zones (simulation, repeat, for-each), whose paired nodes a
one-node-at-a-time edit cannot keep consistent."""

import bpy

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from . import rna_props
from .common import OBJECT, get_object
from .modeling_util import SAFE_NAME, refresh, refuse

SHADER_NODES = frozenset({
    "ShaderNodeMath", "ShaderNodeVectorMath", "ShaderNodeMapRange", "ShaderNodeClamp", "ShaderNodeMix",
    "ShaderNodeCombineXYZ", "ShaderNodeSeparateXYZ", "ShaderNodeValue", "ShaderNodeTexNoise", "ShaderNodeTexVoronoi",
    "ShaderNodeTexWave", "ShaderNodeTexGradient", "ShaderNodeTexWhiteNoise", "ShaderNodeTexChecker", "ShaderNodeTexMagic",
    "ShaderNodeTexBrick", "ShaderNodeValToRGB", "ShaderNodeVectorRotate", "ShaderNodeFloatCurve", "ShaderNodeRGBCurve",
    "ShaderNodeCombineColor", "ShaderNodeSeparateColor",
})
DENIED_PARTS = ("Import", "Bake", "Tool", "Simulation", "Repeat", "ForEach", "Closure", "Bundle", "Gizmo", "GeometryNodeGroup")
NODES_TARGETS = ("MESH", "CURVE", "CURVES", "POINTCLOUD", "VOLUME")
MAX_NODES = 256
VALUE = s.one_of(s.number(), s.boolean(), s.string(0, 256), s.array(s.number(), 2, 4),
                 description="A number, boolean, vector, string, or the name of an object/material/collection for such sockets")


def allowed(node_type):
    if any(part in node_type for part in DENIED_PARTS):
        return False
    return node_type.startswith(("GeometryNode", "FunctionNode")) or node_type in SHADER_NODES


def _modifier(obj, name):
    mods = [m for m in obj.modifiers if m.type == "NODES" and (name is None or m.name == name)]
    if not mods:
        raise not_found("geometry nodes modifier on %s" % obj.name, name or "(any)")
    if mods[0].node_group is None:
        raise invalid_target("%s's modifier %s has no node group" % (obj.name, mods[0].name))
    return mods[0]


def _node(tree, name):
    node = tree.nodes.get(name)
    if node is None:
        raise not_found("node in %s" % tree.name, name)
    return node


def _available(socket):
    return getattr(socket, "enabled", True) and not getattr(socket, "is_unavailable", False)


def _socket(node, key, outputs):
    sockets = node.outputs if outputs else node.inputs
    by_id = [x for x in sockets if x.identifier == key]
    if by_id:
        return by_id[0]
    named = [x for x in sockets if x.name == key and _available(x)]
    if len(named) == 1:
        return named[0]
    side = "output" if outputs else "input"
    choices = ["%s (%s)" % (x.identifier, x.name) for x in sockets if _available(x)]
    if named:
        raise refuse("%s has several %ss named %r; use an identifier: %s" % (node.name, side, key, ", ".join(choices)))
    raise refuse("%s has no %s %r; its %ss: %s" % (node.name, side, key, side, ", ".join(choices)))


def _set_value(socket, value):
    kind = socket.bl_idname
    pointers = {"NodeSocketObject": bpy.data.objects, "NodeSocketMaterial": bpy.data.materials,
                "NodeSocketCollection": bpy.data.collections}
    for prefix, coll in pointers.items():
        if kind.startswith(prefix):
            if not isinstance(value, str) or value not in coll:
                raise refuse("%s takes the name of an existing %s" % (socket.name, prefix[len("NodeSocket"):].lower()))
            socket.default_value = coll[value]
            return
    if not hasattr(socket, "default_value"):
        raise refuse("%s (%s) has no value to set" % (socket.name, kind))
    try:
        socket.default_value = value
    except (TypeError, ValueError, AttributeError) as e:
        raise refuse("%s (%s) cannot take %r: %s" % (socket.name, kind, value, e))


def _node_doc(node):
    def sock(x):
        d = {"name": x.name, "identifier": x.identifier, "type": x.bl_idname, "linked": x.is_linked}
        if hasattr(x, "default_value") and not x.is_output:
            d["value"] = rna_props.read(x.default_value)
        return d
    return {"name": node.name, "type": node.bl_idname,
            "inputs": [sock(x) for x in node.inputs if _available(x)], "outputs": [sock(x) for x in node.outputs if _available(x)]}


@command(
    effect="mutate",
    summary="Edit a Geometry Nodes graph: add a nodes modifier (with its own graph), add, connect, set or remove nodes; allowlisted node types.",
    params=s.obj({
        "object": OBJECT,
        "action": s.enum(("add_modifier", "add_node", "connect", "set_input", "remove_node")),
        "modifier": s.string(1, 63, description="The nodes modifier (default: the object's first)"),
        "node_type": s.string(1, 80, pattern=r"^[A-Za-z]+$", description="add_node: e.g. GeometryNodeSetPosition"),
        "name": SAFE_NAME,
        "node": s.string(1, 63),
        "socket": s.string(1, 63),
        "value": VALUE,
        "properties": s.obj(additional=s.one_of(s.number(), s.boolean(), s.string(0, 128)),
                            description="add_node/set_input: node settings by RNA identifier, e.g. {\"operation\": \"MULTIPLY\"}"),
        "from_node": s.string(1, 63), "from_socket": s.string(1, 63),
        "to_node": s.string(1, 63), "to_socket": s.string(1, 63),
    }, required=("object", "action")),
    result=s.obj({"object": s.string(), "action": s.string(), "modifier": s.string(), "node_group": s.string(),
                  "node": s.any_value(description="The node added or set, with its sockets"), "links": s.integer(0)},
                 required=("object", "action", "modifier", "node_group", "links")),
    errors=("not_found", "invalid_target", "invalid_params", "limit_exceeded"),
)
def geometry_graph_edit(ctx, params):
    obj = get_object(params["object"])
    action = params["action"]
    needs = {"add_modifier": (), "add_node": ("node_type",), "connect": ("from_node", "from_socket", "to_node", "to_socket"),
             "set_input": ("node",), "remove_node": ("node",)}[action]
    takes = set(needs) | {"object", "action", "modifier"} | {
        "add_modifier": {"name"}, "add_node": {"name", "properties"}, "set_input": {"socket", "value", "properties"}}.get(action, set())
    missing = [k for k in needs if k not in params]
    extra = sorted(set(params) - takes)
    if missing:
        raise refuse("%s needs %s" % (action, ", ".join(missing)))
    if extra:
        raise refuse("%s does not take %s; it takes %s" % (action, ", ".join(extra), ", ".join(sorted(takes))))
    out = {"object": obj.name, "action": action}
    if action == "add_modifier":
        if obj.type not in NODES_TARGETS:
            raise invalid_target("%s is a %s; geometry nodes work on %s" % (obj.name, obj.type, ", ".join(NODES_TARGETS)))
        name = params.get("name") or "GeometryNodes"
        ctx.delta.touch(obj)
        tree = bpy.data.node_groups.new(name, "GeometryNodeTree")
        tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
        tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
        gin, gout = tree.nodes.new("NodeGroupInput"), tree.nodes.new("NodeGroupOutput")
        gin.location, gout.location = (-300, 0), (300, 0)
        tree.links.new(gin.outputs[0], gout.inputs[0])
        ctx.delta.created_datablock("node_groups", tree)
        mod = obj.modifiers.new(name, "NODES")
        mod.node_group = tree
        return dict(out, modifier=mod.name, node_group=tree.name, links=len(tree.links))
    mod = _modifier(obj, params.get("modifier"))
    tree = mod.node_group
    out.update(modifier=mod.name, node_group=tree.name)
    if action == "add_node":
        kind = params["node_type"]
        if not allowed(kind):
            raise refuse("%s is not an allowed node type (geometry, function and shader math/texture nodes; no importers, bakes, tools or zones)" % kind)
        if len(tree.nodes) >= MAX_NODES:
            raise CommandError("limit_exceeded", "%s already has %d nodes" % (tree.name, MAX_NODES))
        ctx.delta.touch_datablock("node_groups", tree)
        try:
            node = tree.nodes.new(kind)
        except RuntimeError as e:
            raise refuse("%s cannot be added to a geometry node graph: %s" % (kind, e))
        try:
            if "name" in params:
                node.name = params["name"]
            rna_props.apply(node, params.get("properties", {}))
        except CommandError:
            tree.nodes.remove(node)
            raise
        node.location = (0, -200 * (len(tree.nodes) - 2))
        out["node"] = _node_doc(node)
    elif action == "connect":
        a, b = _node(tree, params["from_node"]), _node(tree, params["to_node"])
        src, dst = _socket(a, params["from_socket"], True), _socket(b, params["to_socket"], False)
        ctx.delta.touch_datablock("node_groups", tree)
        link = tree.links.new(src, dst)
        if not link.is_valid:
            tree.links.remove(link)
            raise refuse("%s.%s (%s) cannot feed %s.%s (%s)" % (a.name, src.name, src.bl_idname, b.name, dst.name, dst.bl_idname))
    elif action == "set_input":
        node = _node(tree, params["node"])
        if ("socket" in params) != ("value" in params) or not ("socket" in params or "properties" in params):
            raise refuse("set_input takes socket with value, and/or properties")
        ctx.delta.touch_datablock("node_groups", tree)
        props = params.get("properties", {})
        before = {k: getattr(node, k) for k in props if hasattr(node, k)}
        rna_props.apply(node, props)  # first: a setting such as data_type decides which sockets exist
        try:
            if "socket" in params:
                _set_value(_socket(node, params["socket"], False), params["value"])
        except CommandError:
            for k, v in before.items():  # a refused value leaves the node as it was
                setattr(node, k, v)
            raise
        out["node"] = _node_doc(node)
    else:
        node = _node(tree, params["node"])
        if node.bl_idname in ("NodeGroupInput", "NodeGroupOutput"):
            raise invalid_target("the graph's input and output nodes stay")
        ctx.delta.touch_datablock("node_groups", tree)
        tree.nodes.remove(node)
    out["links"] = len(tree.links)
    refresh()
    return out


@command(
    effect="read",
    summary="A Geometry Nodes modifier's graph: its nodes with their sockets and values, and its links.",
    params=s.obj({"object": OBJECT, "modifier": s.string(1, 63)}, required=("object",)),
    result=s.obj({"object": s.string(), "modifier": s.string(), "node_group": s.string(),
                  "nodes": s.array(s.any_value(), max_items=MAX_NODES),
                  "links": s.array(s.obj({"from_node": s.string(), "from_socket": s.string(), "to_node": s.string(),
                                          "to_socket": s.string(), "valid": s.boolean()},
                                         required=("from_node", "from_socket", "to_node", "to_socket", "valid")))},
                 required=("object", "modifier", "node_group", "nodes", "links")),
    errors=("not_found", "invalid_target"),
    max_result_bytes=512 * 1024,
)
def geometry_graph_info(ctx, params):
    obj = get_object(params["object"])
    mod = _modifier(obj, params.get("modifier"))
    tree = mod.node_group
    return {"object": obj.name, "modifier": mod.name, "node_group": tree.name,
            "nodes": [_node_doc(n) for n in list(tree.nodes)[:MAX_NODES]],
            "links": [{"from_node": l.from_node.name, "from_socket": l.from_socket.identifier, "to_node": l.to_node.name,
                       "to_socket": l.to_socket.identifier, "valid": l.is_valid} for l in tree.links]}
