"""Resolving a settings target `{kind, name, object}` and a dotted RNA path on it.

Security reasoning (why this cannot reach what it should not):
- A target is looked up by kind in a fixed table: the object, its data, its material,
  the world, the scene, a view layer, a rigid body or rigid body world, a constraint or
  a modifier, each by exact name. No Python name is looked up from agent text.
- A path is identifiers joined by dots. Each segment must match IDENT and must be a
  property listed in the current struct's `bl_rna.properties`; only then is it read
  with getattr, so no Python attribute (methods, `__class__`, `bl_rna` itself) is ever
  reached. Between segments only pointers to nested structs (render, image_settings,
  cycles, rigid_body, dof, ...) are followed: never an ID pointer (another datablock is
  its own target, so the delta names what changed), never a collection, never the
  animation data (drivers and keyframes are not settings).
- The one other syntax is a final `["key"]`: the ID property (custom property) `key`
  of the target datablock; the key must match KEY. A final `*` (alone or after a dot)
  lists every property of that struct, for discovery.
Nothing is evaluated; values are checked against the RNA by `rna_props.check_value`.
"""

import re

import bpy

from ..errors import CommandError, invalid_target, not_found
from . import rna_versions
from .common import get_object, scene

IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")
KEY = re.compile(r'^\["([A-Za-z0-9_. -]{1,63})"\]$')
MAX_DEPTH = 6
# Nested structs a path may not enter: animation (drivers, keyframes) is no setting.
NO_ENTRY = frozenset({"AnimData", "AnimViz", "MotionPath"})

# kind -> what `name` names.
KINDS = ("object", "mesh", "curve", "text", "light", "camera", "material", "world", "scene", "view_layer",
         "rigid_body", "rigid_body_world", "constraint", "modifier")
# Object-data kinds: (object types, bpy.data collection).
DATA_KINDS = {
    "mesh": (("MESH",), "meshes"), "curve": (("CURVE", "SURFACE"), "curves"), "text": (("FONT",), "curves"),
    "light": (("LIGHT",), "lights"), "camera": (("CAMERA",), "cameras"),
}


class Target:
    """A resolved target: `struct` the paths start from, `owner` the ID that holds it,
    `label` for messages, and `touch(delta)` reporting it to the delta tracker."""

    def __init__(self, kind, struct, owner, label, touch):
        self.kind, self.struct, self.owner, self.label, self._touch = kind, struct, owner, label, touch

    def touch(self, delta):
        self._touch(delta)


def _need(params, key, kind):
    value = params.get(key)
    if not value:
        raise CommandError("invalid_params", "a %s target needs `%s`" % (kind, key))
    return value


def _data_target(kind, name):
    types, collection = DATA_KINDS[kind]
    obj = bpy.data.objects.get(name)
    if obj is not None:
        if obj.type not in types:
            raise invalid_target("%s is a %s object, not a %s" % (obj.name, obj.type.lower(), kind))
        data, users = obj.data, [obj]
    else:
        data = getattr(bpy.data, collection).get(name)
        if data is None:
            raise not_found("object or %s" % kind, name)
        if kind == "text" and not isinstance(data, bpy.types.TextCurve):
            raise invalid_target("%s is a curve, not a text" % data.name)
        if kind == "curve" and isinstance(data, bpy.types.TextCurve):
            raise invalid_target("%s is a text; use kind text" % data.name)
        users = [o for o in bpy.data.objects if o.data == data]

    def touch(delta):
        for user in users:
            delta.touch_data_users(user)
        if not users:
            raise invalid_target("%s %s is used by no object, so no change to it would show" % (kind, data.name))
    return Target(kind, data, data, "%s %r" % (kind, data.name), touch)


def _owned(kind, obj_name, name, collection_of):
    obj = get_object(obj_name)
    item = collection_of(obj).get(name)
    if item is None:
        raise not_found("%s on %s" % (kind, obj.name), name)
    return Target(kind, item, obj, "%s %r of %s" % (kind, item.name, obj.name), lambda d: d.touch(obj))


def resolve_target(params):
    kind = params["kind"]
    if kind == "object":
        obj = get_object(_need(params, "name", kind))
        return Target(kind, obj, obj, "object %r" % obj.name, lambda d: d.touch(obj))
    if kind in DATA_KINDS:
        return _data_target(kind, _need(params, "name", kind))
    if kind == "material":
        mat = bpy.data.materials.get(_need(params, "name", kind))
        if mat is None:
            raise not_found("material", params["name"])
        return Target(kind, mat, mat, "material %r" % mat.name, lambda d: d.touch_datablock("materials", mat))
    if kind == "world":
        name = params.get("name")
        world = bpy.data.worlds.get(name) if name else scene().world
        if world is None:
            raise not_found("world", name or "(the scene has none)")

        def touch_world(d):
            d.touch_datablock("worlds", world)
            d.touch_settings("world")
        return Target(kind, world, world, "world %r" % world.name, touch_world)
    sc = scene()
    if params.get("name") and kind == "scene" and params["name"] != sc.name:
        raise invalid_target("only the current scene %r can be set (not %r)" % (sc.name, params["name"]))
    if kind == "scene":
        return Target(kind, sc, sc, "scene %r" % sc.name, _touch_scene)
    if kind == "view_layer":
        name = params.get("name")
        layer = sc.view_layers.get(name) if name else bpy.context.view_layer
        if layer is None:
            raise not_found("view layer", name)
        return Target(kind, layer, sc, "view layer %r" % layer.name, _touch_scene)
    if kind == "rigid_body_world":
        if sc.rigidbody_world is None:
            raise invalid_target("the scene has no rigid body world (give an object a rigid body first)")
        return Target(kind, sc.rigidbody_world, sc, "rigid body world", _touch_scene)
    if kind == "rigid_body":
        obj = get_object(_need(params, "name", kind))
        if obj.rigid_body is None:
            raise invalid_target("%s has no rigid body (physics.rigid_body adds one)" % obj.name)
        return Target(kind, obj.rigid_body, obj, "rigid body of %s" % obj.name, lambda d: d.touch(obj))
    if kind == "constraint":
        return _owned(kind, _need(params, "object", kind), _need(params, "name", kind), lambda o: o.constraints)
    if kind == "modifier":
        return _owned(kind, _need(params, "object", kind), _need(params, "name", kind), lambda o: o.modifiers)
    raise CommandError("invalid_params", "unknown target kind %r; kinds: %s" % (kind, ", ".join(KINDS)))


def _touch_scene(delta):
    delta.touch_settings("render")
    delta.touch_settings("scene")


class Resolved:
    """The struct holding the last segment, and the last segment: an RNA property
    (`prop`), a custom property (`custom` = key) or every property (`listing`)."""

    def __init__(self, struct, key, prop=None, custom=None, listing=False, rna=None):
        self.struct, self.key, self.prop, self.custom, self.listing = struct, key, prop, custom, listing
        self.rna = rna if rna is not None else (struct.bl_rna if struct is not None else None)


def _refuse(path, why):
    return CommandError("invalid_params", "path %r: %s" % (path, why))


def resolve_path(target, path, reading=False):
    if not isinstance(path, str) or not path or len(path) > 256:
        raise _refuse(path, "a path is 1..256 characters")
    custom = None
    head = path
    if path.endswith('"]') and '["' in path:
        cut = path.index('["')
        match = KEY.match(path[cut:])
        if match is None:
            raise _refuse(path, 'a custom property is written ["key"] (letters, digits, _ . - space)')
        custom, head = match.group(1), path[:cut].rstrip(".")
        if head:
            raise _refuse(path, "custom properties are read and set on the target itself: [\"%s\"]" % custom)
        if not isinstance(target.struct, bpy.types.ID):
            raise _refuse(path, "a %s has no custom properties; use its object or datablock" % target.kind)
        return Resolved(target.struct, custom, custom=custom)
    segments = head.split(".")
    if len(segments) > MAX_DEPTH:
        raise _refuse(path, "at most %d segments" % MAX_DEPTH)
    struct = target.struct
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == "*" and last:
            return Resolved(struct, "*", listing=True)
        if not IDENT.match(seg):
            raise _refuse(path, "%r is not an RNA identifier (lowercase letters, digits, _)" % seg)
        prop = struct.bl_rna.properties.get(seg)
        if prop is None or seg == "rna_type":
            owner = struct.bl_rna.identifier
            raise _refuse(path, "%s has no property %r in Blender %s%s; its properties: %s" % (
                owner, seg, bpy.app.version_string, rna_versions.missing_property_note(owner, seg),
                ", ".join(p.identifier for p in struct.bl_rna.properties if p.identifier != "rna_type")[:1500]))
        if last:
            return Resolved(struct, seg, prop=prop)
        if prop.type != "POINTER" or prop.fixed_type is None:
            raise _refuse(path, "%r is a %s property, not a group of settings" % (seg, prop.type.lower()))
        fixed = prop.fixed_type.identifier
        cls = getattr(bpy.types, fixed, None)
        if isinstance(cls, type) and issubclass(cls, bpy.types.ID):
            raise _refuse(path, "%r is another datablock (%s); set it as its own target" % (seg, fixed))
        if fixed in NO_ENTRY:
            raise _refuse(path, "%r is animation data (drivers, keyframes), not a setting" % seg)
        if reading and unstored_group(struct, prop):
            return _unstored(path, prop.fixed_type, segments[i + 1:])
        nested = getattr(struct, seg)
        if nested is None:
            raise _refuse(path, "%r is not set on %s" % (seg, target.label))
        struct = nested
    raise _refuse(path, "empty")


def unstored_group(struct, prop):
    """An add-on's settings group (Cycles' object or view-layer settings) that holds
    nothing yet, in Blender 4.5, where reading it would store it as a custom property:
    a read must not change the scene, and unstored, every value is its default."""
    base = prop.fixed_type.base if prop.fixed_type is not None else None
    if base is None or base.identifier != "PropertyGroup" or bpy.app.version >= (5, 0, 0):
        return False
    try:
        return prop.identifier not in struct.keys()
    except TypeError:
        return False


def _unstored(path, rna, rest):
    """Resolved for a path inside an unstored group: `struct` None, read from the RNA."""
    if rest == ["*"]:
        return Resolved(None, "*", listing=True, rna=rna)
    if len(rest) != 1 or not IDENT.match(rest[0]) or rest[0] not in rna.properties:
        raise _refuse(path, "no property %r in %s" % (".".join(rest), rna.identifier))
    return Resolved(None, rest[0], prop=rna.properties[rest[0]], rna=rna)
