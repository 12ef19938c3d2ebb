"""Constraints on objects and on pose bones: add, remove, list."""

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from . import rna_props
from .common import OBJECT, get_object
from .modifiers import PROPERTY_VALUE

TYPES = ("COPY_LOCATION", "COPY_ROTATION", "COPY_SCALE", "COPY_TRANSFORMS", "TRACK_TO", "DAMPED_TRACK",
         "LIMIT_LOCATION", "LIMIT_ROTATION", "LIMIT_SCALE", "LIMIT_DISTANCE", "CHILD_OF", "FOLLOW_PATH", "IK",
         "STRETCH_TO", "FLOOR", "LOCKED_TRACK", "TRANSFORM", "MAINTAIN_VOLUME", "SHRINKWRAP", "CLAMP_TO", "PIVOT")
BONE = s.string(1, 63, description="A pose bone of the armature (constraints then apply to the bone)")

CONSTRAINT = s.obj({
    "name": s.string(), "type": s.string(), "enabled": s.boolean(), "influence": s.number(),
    "target": s.nullable(s.string()), "subtarget": s.nullable(s.string()),
}, required=("name", "type", "enabled", "influence", "target", "subtarget"))


def _owner(obj, bone):
    if bone is None:
        return obj
    if obj.type != "ARMATURE" or obj.pose is None:
        raise invalid_target("%s is a %s, so it has no bone %r" % (obj.name, obj.type, bone))
    pose_bone = obj.pose.bones.get(bone)
    if pose_bone is None:
        raise not_found("bone", bone)
    return pose_bone


def _describe(c):
    target = getattr(c, "target", None)
    return {"name": c.name, "type": c.type, "enabled": not c.mute, "influence": round(c.influence, 5),
            "target": target.name if target is not None else None, "subtarget": getattr(c, "subtarget", None) or None}


@command(
    effect="mutate",
    summary="Add a constraint to an object or a pose bone, with a target and properties checked against Blender's RNA.",
    params=s.obj({
        "object": OBJECT,
        "bone": BONE,
        "type": s.enum(TYPES),
        "name": s.string(1, 63),
        "target": OBJECT,
        "subtarget": s.string(1, 63, description="Bone or vertex group of the target"),
        "influence": s.number(0, 1),
        "properties": s.obj(additional=PROPERTY_VALUE),
    }, required=("object", "type")),
    result=s.obj({"object": s.string(), "bone": s.nullable(s.string()), "constraint": CONSTRAINT,
                  "properties": s.obj(additional=s.any_value())},
                 required=("object", "bone", "constraint", "properties")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def add_constraint(ctx, params):
    obj = get_object(params["object"])
    owner = _owner(obj, params.get("bone"))
    target = get_object(params["target"]) if "target" in params else None
    if target is obj and params.get("bone") is None:
        raise invalid_target("an object cannot target itself")
    ctx.delta.touch(obj)
    c = owner.constraints.new(params["type"])
    try:
        if params.get("name"):
            c.name = params["name"]
        if target is not None:
            if not hasattr(c, "target"):
                raise CommandError("invalid_params", "a %s constraint takes no target" % params["type"])
            c.target = target
        if "subtarget" in params:
            if not hasattr(c, "subtarget"):
                raise CommandError("invalid_params", "a %s constraint takes no subtarget" % params["type"])
            c.subtarget = params["subtarget"]
        if "influence" in params:
            c.influence = params["influence"]
        applied = rna_props.apply(c, params.get("properties", {}))
    except CommandError:
        owner.constraints.remove(c)
        raise
    return {"object": obj.name, "bone": params.get("bone"), "constraint": _describe(c), "properties": applied}


@command(
    effect="destroy",
    summary="Remove a constraint from an object or a pose bone by name.",
    params=s.obj({"object": OBJECT, "bone": BONE, "name": s.string(1, 63)}, required=("object", "name")),
    result=s.obj({"object": s.string(), "bone": s.nullable(s.string()), "removed": s.string()},
                 required=("object", "bone", "removed")),
    errors=("not_found", "invalid_target"),
)
def remove_constraint(ctx, params):
    obj = get_object(params["object"])
    owner = _owner(obj, params.get("bone"))
    c = owner.constraints.get(params["name"])
    if c is None:
        raise not_found("constraint", params["name"])
    ctx.delta.touch(obj)
    owner.constraints.remove(c)
    return {"object": obj.name, "bone": params.get("bone"), "removed": params["name"]}


@command(
    effect="read",
    summary="The constraints of an object or a pose bone, in evaluation order.",
    params=s.obj({"object": OBJECT, "bone": BONE}, required=("object",)),
    result=s.obj({"object": s.string(), "bone": s.nullable(s.string()), "constraints": s.array(CONSTRAINT, max_items=64),
                  "total": s.integer(0)}, required=("object", "bone", "constraints", "total")),
    errors=("not_found", "invalid_target"),
)
def list_constraints(ctx, params):
    obj = get_object(params["object"])
    owner = _owner(obj, params.get("bone"))
    items = list(owner.constraints)
    return {"object": obj.name, "bone": params.get("bone"), "constraints": [_describe(c) for c in items[:64]], "total": len(items)}
