"""Rigging: armatures and their bones, skinning a mesh to an armature, posing bones,
vertex groups and weights. Edit bones exist only in edit mode, so bone edits enter it
through `context.temp_override` on the armature (there is no data-API route) and always
leave it; automatic and envelope weights use `object.parent_set`, Blender's only
implementation of heat and envelope weighting."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, VEC3, claim_name, get_object, link

BONE_NAME = s.string(1, 63, pattern=r"^[A-Za-z0-9_. -]{1,63}$")
BONE = s.obj({
    "name": BONE_NAME, "head": VEC3, "tail": VEC3, "parent": BONE_NAME, "connected": s.boolean(),
    "roll": s.number(-7, 7, description="Radians"),
}, required=("name", "head", "tail"))
BONE_OUT = s.obj({"name": s.string(), "head": VEC3, "tail": VEC3, "parent": s.nullable(s.string()), "connected": s.boolean()},
                 required=("name", "head", "tail", "parent", "connected"))


class edit_mode:
    """Edit mode on `arm` for the block, with the active object restored afterwards."""

    def __init__(self, arm):
        self.arm = arm

    def __enter__(self):
        layer = bpy.context.view_layer
        self.previous = layer.objects.active
        layer.objects.active = self.arm
        self.override = bpy.context.temp_override(active_object=self.arm, object=self.arm, selected_objects=[self.arm])
        self.override.__enter__()
        bpy.ops.object.mode_set(mode="EDIT")
        return self.arm.data.edit_bones

    def __exit__(self, *exc):
        bpy.ops.object.mode_set(mode="OBJECT")
        self.override.__exit__(*exc)
        bpy.context.view_layer.objects.active = self.previous
        return False


def _bones(arm):
    return [{"name": b.name, "head": [round(v, 5) for v in b.head_local], "tail": [round(v, 5) for v in b.tail_local],
             "parent": b.parent.name if b.parent else None, "connected": b.use_connect} for b in arm.data.bones]


def _check_bone(spec):
    if (Vector(spec["tail"]) - Vector(spec["head"])).length < 1e-6:
        raise CommandError("invalid_params", "bone %r has the same head and tail (Blender deletes zero-length bones)" % spec["name"])


def _armature(name):
    obj = get_object(name)
    if obj.type != "ARMATURE":
        raise invalid_target("%s is a %s, not an armature" % (obj.name, obj.type))
    return obj


@command(
    effect="mutate",
    summary="Create an armature object with a list of bones (head, tail, parent, connected, roll); metres, radians.",
    params=s.obj({"name": OBJECT, "location": VEC3, "bones": s.array(BONE, 1, 256)}, required=("name", "bones")),
    result=s.obj({"name": s.string(), "bones": s.array(BONE_OUT), "renamed_from": s.string()}, required=("name", "bones")),
    errors=("invalid_params",),
)
def create_armature(ctx, params):
    specs = params["bones"]
    names = [b["name"] for b in specs]
    if len(set(names)) != len(names):
        raise CommandError("invalid_params", "bone names must be unique")
    for b in specs:
        _check_bone(b)
        if b.get("parent") is not None and b["parent"] not in names:
            raise CommandError("invalid_params", "bone %r names a parent %r that is not in the list" % (b["name"], b["parent"]))
        if b.get("parent") == b["name"]:
            raise CommandError("invalid_params", "bone %r cannot be its own parent" % b["name"])
    parents = {b["name"]: b.get("parent") for b in specs}
    for name in names:
        seen, cur = set(), name
        while cur is not None:
            if cur in seen:
                raise CommandError("invalid_params", "the bone parents make a cycle through %r" % name)
            seen.add(cur)
            cur = parents[cur]
    obj = bpy.data.objects.new(params["name"], bpy.data.armatures.new(params["name"]))
    link(obj)
    ctx.delta.created(obj)
    out = {}
    claim_name(obj, params["name"], out)
    obj.location = params.get("location", (0, 0, 0))
    with edit_mode(obj) as edit:
        made = {}
        for b in specs:
            eb = edit.new(b["name"])
            eb.head, eb.tail, eb.roll = b["head"], b["tail"], b.get("roll", 0.0)
            made[b["name"]] = eb
        for b in specs:
            if b.get("parent"):
                made[b["name"]].parent = made[b["parent"]]
                made[b["name"]].use_connect = bool(b.get("connected", False))
    out.update({"name": obj.name, "bones": _bones(obj)})
    return out


@command(
    effect="destroy",
    summary="Edit one bone of an armature: add it, remove it, or set its parent; metres, radians.",
    params=s.obj({
        "armature": OBJECT, "action": s.enum(("add", "remove", "set_parent")), "bone": BONE_NAME,
        "head": VEC3, "tail": VEC3, "parent": dict(BONE_NAME, description="The parent bone; set_parent without it clears the parent"),
        "connected": s.boolean(), "roll": s.number(-7, 7),
    }, required=("armature", "action", "bone")),
    result=s.obj({"armature": s.string(), "bones": s.array(BONE_OUT, max_items=256), "total": s.integer(0)},
                 required=("armature", "bones", "total")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def edit_bone(ctx, params):
    arm = _armature(params["armature"])
    action, name = params["action"], params["bone"]
    bones = arm.data.bones
    parent = params.get("parent")
    if action == "add":
        if name in bones:
            raise CommandError("invalid_params", "%s already has a bone %r" % (arm.name, name))
        if "head" not in params or "tail" not in params:
            raise CommandError("invalid_params", "add needs head and tail")
        _check_bone({"name": name, "head": params["head"], "tail": params["tail"]})
    elif name not in bones:
        raise not_found("bone", name)
    if parent is not None and parent not in bones:
        raise not_found("bone", parent)
    if action == "set_parent" and parent is not None:
        cur = bones[parent]
        while cur is not None:
            if cur.name == name:
                raise invalid_target("parenting %r to %r would make a cycle" % (name, parent))
            cur = cur.parent
    ctx.delta.touch_data_users(arm)
    with edit_mode(arm) as edit:
        if action == "remove":
            edit.remove(edit[name])
        else:
            eb = edit.new(name) if action == "add" else edit[name]
            if action == "add":
                eb.head, eb.tail, eb.roll = params["head"], params["tail"], params.get("roll", 0.0)
            if action == "set_parent" or parent is not None:
                eb.parent = edit[parent] if parent is not None else None
            if "connected" in params:
                eb.use_connect = params["connected"] and eb.parent is not None
    rows = _bones(arm)
    return {"armature": arm.name, "bones": rows[:256], "total": len(rows)}


@command(
    effect="mutate",
    summary="Skin a mesh to an armature: automatic (heat) weights, envelope weights, or empty groups; parents it and adds the Armature modifier.",
    params=s.obj({"mesh": OBJECT, "armature": OBJECT, "mode": s.enum(("AUTO", "ENVELOPE", "EMPTY"))}, required=("mesh", "armature")),
    result=s.obj({
        "mesh": s.string(), "armature": s.string(), "mode": s.string(), "modifier": s.string(),
        "groups": s.array(s.obj({"name": s.string(), "vertices": s.integer(0), "max_weight": s.number()},
                                required=("name", "vertices", "max_weight")), max_items=256),
    }, required=("mesh", "armature", "mode", "modifier", "groups")),
    errors=("not_found", "invalid_target", "blender_error"),
    timeout_s=120,
)
def bind_armature(ctx, params):
    mesh, arm = get_object(params["mesh"]), _armature(params["armature"])
    if mesh.type != "MESH":
        raise invalid_target("%s is a %s, not a mesh" % (mesh.name, mesh.type))
    if not arm.data.bones:
        raise invalid_target("%s has no bones" % arm.name)
    mode = params.get("mode", "AUTO")
    ctx.delta.touch(mesh)
    ctx.delta.touch(arm)
    layer = bpy.context.view_layer
    layer.update()  # heat weighting reads matrix_world: bring it up to date with the transforms
    previous = layer.objects.active
    try:
        layer.objects.active = arm
        with bpy.context.temp_override(active_object=arm, object=arm, selected_objects=[mesh, arm],
                                       selected_editable_objects=[mesh, arm]):
            kind = {"AUTO": "ARMATURE_AUTO", "ENVELOPE": "ARMATURE_ENVELOPE", "EMPTY": "ARMATURE_NAME"}[mode]
            result = bpy.ops.object.parent_set(type=kind, keep_transform=True)
    finally:
        layer.objects.active = previous
    if "FINISHED" not in result:
        raise CommandError("blender_error", "Blender refused to bind %s to %s" % (mesh.name, arm.name))
    modifier = next((m for m in mesh.modifiers if m.type == "ARMATURE" and m.object == arm), None)
    counts = {g.index: [0, 0.0] for g in mesh.vertex_groups}
    for v in mesh.data.vertices:
        for g in v.groups:
            if g.weight > 0:
                c = counts[g.group]
                c[0] += 1
                c[1] = max(c[1], g.weight)
    groups = [{"name": g.name, "vertices": counts[g.index][0], "max_weight": round(counts[g.index][1], 5)} for g in mesh.vertex_groups]
    return {"mesh": mesh.name, "armature": arm.name, "mode": mode, "modifier": modifier.name if modifier else "", "groups": groups[:256]}


@command(
    effect="mutate",
    summary="Pose one bone (location, Euler XYZ rotation in radians, scale, all in bone space), optionally keyed at a frame.",
    params=s.obj({
        "armature": OBJECT, "bone": BONE_NAME, "location": VEC3, "rotation": VEC3, "scale": s.ref("positive_vec3"),
        "frame": s.integer(-100000, 1000000),
    }, required=("armature", "bone"), min_properties=3),
    result=s.obj({"armature": s.string(), "bone": s.string(), "location": VEC3, "rotation": VEC3, "scale": VEC3,
                  "keyed": s.array(s.string())}, required=("armature", "bone", "location", "rotation", "scale", "keyed")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def pose_bone(ctx, params):
    arm = _armature(params["armature"])
    pb = arm.pose.bones.get(params["bone"])
    if pb is None:
        raise not_found("bone", params["bone"])
    if not any(k in params for k in ("location", "rotation", "scale")):
        raise CommandError("invalid_params", "give location, rotation or scale")
    if "location" in params and pb.bone.use_connect:
        raise invalid_target("bone %r is connected to its parent, so it cannot move; rotate it or move the parent" % pb.name)
    ctx.delta.touch(arm)
    had = arm.animation_data is not None and arm.animation_data.action is not None
    if had and "frame" in params:
        ctx.delta.touch_datablock("actions", arm.animation_data.action)
    keyed = []
    if "rotation" in params and pb.rotation_mode != "XYZ":
        pb.rotation_mode = "XYZ"
    for key, attr in (("location", "location"), ("rotation", "rotation_euler"), ("scale", "scale")):
        if key in params:
            setattr(pb, attr, params[key])
            if "frame" in params:
                pb.keyframe_insert(attr, frame=params["frame"], group=pb.name)
                keyed.append(attr)
    if keyed and not had:
        ctx.delta.created_datablock("actions", arm.animation_data.action)
    return {"armature": arm.name, "bone": pb.name, "location": [round(v, 5) for v in pb.location],
            "rotation": [round(v, 7) for v in pb.rotation_euler], "scale": [round(v, 5) for v in pb.scale], "keyed": keyed}


GROUP = s.obj({"name": s.string(), "index": s.integer(0), "vertices": s.integer(0)}, required=("name", "index", "vertices"))


def _mesh(name):
    obj = get_object(name)
    if obj.type != "MESH":
        raise invalid_target("%s is a %s; vertex groups need a mesh" % (obj.name, obj.type))
    return obj


def _groups(obj):
    counts = [0] * len(obj.vertex_groups)
    for v in obj.data.vertices:
        for g in v.groups:
            counts[g.group] += 1
    return [{"name": g.name, "index": g.index, "vertices": counts[g.index]} for g in obj.vertex_groups][:256]


@command(
    effect="read",
    summary="The vertex groups of a mesh, with how many vertices each holds.",
    params=s.obj({"object": OBJECT}, required=("object",)),
    result=s.obj({"object": s.string(), "groups": s.array(GROUP, max_items=256)}, required=("object", "groups")),
    errors=("not_found", "invalid_target"),
)
def list_vertex_groups(ctx, params):
    obj = _mesh(params["object"])
    return {"object": obj.name, "groups": _groups(obj)}


@command(
    effect="mutate",
    summary="Vertex groups by vertex index: create a group, assign weights (replace, add, subtract), or remove vertices from it.",
    params=s.obj({
        "object": OBJECT, "action": s.enum(("create", "assign", "remove")), "group": s.string(1, 63),
        "vertices": s.array(s.integer(0), 1, 1000000, description="Vertex indices (assign: required; remove: default all)"),
        "weight": s.number(0, 1), "mode": s.enum(("REPLACE", "ADD", "SUBTRACT")),
    }, required=("object", "action", "group")),
    result=s.obj({"object": s.string(), "group": s.string(), "groups": s.array(GROUP, max_items=256)},
                 required=("object", "group", "groups")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def vertex_group(ctx, params):
    obj = _mesh(params["object"])
    action, name = params["action"], params["group"]
    group = obj.vertex_groups.get(name)
    vertices = params.get("vertices")
    if vertices is not None and max(vertices) >= len(obj.data.vertices):
        raise CommandError("invalid_params", "vertex index %d is out of range (%d vertices)" % (max(vertices), len(obj.data.vertices)))
    if action == "create" and group is not None:
        raise CommandError("invalid_params", "%s already has a vertex group %r" % (obj.name, name))
    if action != "create" and group is None:
        raise not_found("vertex group", name)
    if action == "assign" and vertices is None:
        raise CommandError("invalid_params", "assign needs vertices")
    ctx.delta.touch(obj)
    if action == "create":
        group = obj.vertex_groups.new(name=name)
        if vertices is not None:
            group.add(vertices, params.get("weight", 1.0), params.get("mode", "REPLACE"))
    elif action == "assign":
        group.add(vertices, params.get("weight", 1.0), params.get("mode", "REPLACE"))
    else:
        group.remove(vertices if vertices is not None else list(range(len(obj.data.vertices))))
    return {"object": obj.name, "group": group.name, "groups": _groups(obj)}
