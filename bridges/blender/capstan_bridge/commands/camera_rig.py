"""Camera rig: aim (optionally with a Track To constraint), frame objects by the field
of view, depth of field, lens and sensor. All data API; angles in radians."""

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from .common import OBJECT, VEC3, aim, get_object, rounded, scene

TRACK_NAME = "capstan_track"


def get_camera(name):
    obj = get_object(name)
    if obj.type != "CAMERA":
        raise invalid_target("object %r is a %s, not a camera" % (name, obj.type))
    return obj


def _evaluated():
    """World matrices of objects changed since the last evaluation (a location set by
    another command) are stale until the view layer is updated."""
    bpy.context.view_layer.update()


def _target_point(params):
    if ("target_object" in params) == ("target_point" in params):
        raise CommandError("invalid_params", "give target_object or target_point, exactly one")
    if "target_object" in params:
        target = get_object(params["target_object"])
        return target, target.matrix_world.translation.copy()
    return None, Vector(params["target_point"])


def _forward(obj):
    return (obj.matrix_world.to_3x3() @ Vector((0.0, 0.0, -1.0))).normalized()


@command(
    effect="mutate",
    summary="Aim a camera's view axis at an object or a point; with track, keep it aimed with a Track To constraint.",
    params=s.obj({
        "camera": OBJECT,
        "target_object": OBJECT,
        "target_point": VEC3,
        "track": s.boolean(description="Add (or update) a Track To constraint; needs target_object"),
    }, required=("camera",)),
    result=s.obj({"camera": s.string(), "rotation": VEC3, "forward": VEC3, "target": VEC3, "tracking": s.nullable(s.string())},
                 required=("camera", "rotation", "forward", "target", "tracking")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def aim_camera(ctx, params):
    cam = get_camera(params["camera"])
    _evaluated()
    target_obj, point = _target_point(params)
    if params.get("track") and target_obj is None:
        raise CommandError("invalid_params", "track needs target_object (a constraint follows an object, not a point)")
    if target_obj == cam:
        raise invalid_target("a camera cannot aim at itself")
    if cam.parent is not None:
        raise invalid_target("camera %r has a parent; aiming sets its local rotation, unparent it first" % cam.name)
    if (point - cam.matrix_world.translation).length < 1e-9:
        raise CommandError("invalid_params", "the target is at the camera's own location")
    ctx.delta.touch(cam)
    aim(cam, point)
    tracking = None
    if params.get("track"):
        con = cam.constraints.get(TRACK_NAME) or cam.constraints.new("TRACK_TO")
        con.name = TRACK_NAME
        con.target = target_obj
        con.track_axis, con.up_axis = "TRACK_NEGATIVE_Z", "UP_Y"
        tracking = target_obj.name
    bpy.context.view_layer.update()
    return {"camera": cam.name, "rotation": rounded(cam.rotation_euler), "forward": rounded(_forward(cam)),
            "target": rounded(point), "tracking": tracking}


def _world_corners(obj):
    if obj.type in ("MESH", "CURVE", "SURFACE", "FONT", "META", "ARMATURE", "LATTICE", "GPENCIL", "GREASEPENCIL", "VOLUME", "POINTCLOUD", "CURVES"):
        return [obj.matrix_world @ Vector(c) for c in obj.bound_box]
    return [obj.matrix_world.translation.copy()]


def half_tangents(cam_data, sc):
    """tan(half field of view) horizontally and vertically, as Blender fits the sensor."""
    r = sc.render
    w = r.resolution_x * r.pixel_aspect_x
    h = r.resolution_y * r.pixel_aspect_y
    fit = cam_data.sensor_fit
    if fit == "AUTO":
        fit = "HORIZONTAL" if w >= h else "VERTICAL"
        size = cam_data.sensor_width
    else:
        size = cam_data.sensor_width if fit == "HORIZONTAL" else cam_data.sensor_height
    t = size / (2.0 * cam_data.lens)
    return (t, t * h / w) if fit == "HORIZONTAL" else (t * w / h, t)


@command(
    effect="mutate",
    summary="Move a camera (keeping or choosing its direction) so the bounding boxes of the objects fit its frame with a margin.",
    params=s.obj({
        "camera": OBJECT,
        "objects": s.array(OBJECT, 1, 256),
        "margin": s.number(0, 0.9, description="Fraction of the frame left free around the objects"),
        "keep_direction": s.boolean(description="Keep the camera's view direction (default); else view from the front-right, above"),
    }, required=("camera", "objects")),
    result=s.obj({"camera": s.string(), "location": VEC3, "rotation": VEC3, "center": VEC3, "distance": s.number(),
                  "ortho_scale": s.nullable(s.number())},
                 required=("camera", "location", "rotation", "center", "distance", "ortho_scale")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def frame_objects(ctx, params):
    cam = get_camera(params["camera"])
    objs = [get_object(n) for n in params["objects"]]
    if cam in objs:
        raise CommandError("invalid_params", "the camera cannot frame itself")
    if cam.parent is not None:
        raise invalid_target("camera %r has a parent; unparent it before framing" % cam.name)
    _evaluated()
    corners = [c for o in objs for c in _world_corners(o)]
    lo = Vector(tuple(min(c[i] for c in corners) for i in range(3)))
    hi = Vector(tuple(max(c[i] for c in corners) for i in range(3)))
    center = (lo + hi) / 2
    ctx.delta.touch_data_users(cam)
    if not params.get("keep_direction", True):
        cam.rotation_euler = (-Vector((1.0, -1.0, 0.6)).normalized()).to_track_quat("-Z", "Y").to_euler()
    rot = cam.rotation_euler.to_matrix()
    forward, right, up = rot @ Vector((0, 0, -1)), rot @ Vector((1, 0, 0)), rot @ Vector((0, 1, 0))
    keep = 1.0 - params.get("margin", 0.1)
    data, sc = cam.data, scene()
    ortho = None
    if data.type == "ORTHO":
        th, tv = half_tangents(data, sc)
        ratio = th / tv
        half_w = max(max(abs((c - center).dot(right)) for c in corners), max(abs((c - center).dot(up)) for c in corners) * ratio)
        data.ortho_scale = max(1e-3, 2.0 * half_w / keep)
        ortho = round(data.ortho_scale, 5)
        depth = max(abs((c - center).dot(forward)) for c in corners)
        distance = depth + data.clip_start + 1.0
    else:
        th, tv = half_tangents(data, sc)
        th, tv = th * keep, tv * keep
        distance = 0.0
        for c in corners:
            rel = c - center
            a = rel.dot(forward)
            distance = max(distance, abs(rel.dot(right)) / th - a, abs(rel.dot(up)) / tv - a, data.clip_start * 1.01 - a)
    cam.location = center - forward * distance
    if distance + max((c - center).length for c in corners) > data.clip_end:
        data.clip_end = distance + 2 * max((c - center).length for c in corners)
    return {"camera": cam.name, "location": rounded(cam.location), "rotation": rounded(cam.rotation_euler),
            "center": rounded(center), "distance": round(distance, 5), "ortho_scale": ortho}


@command(
    effect="mutate",
    summary="Depth of field of a camera: on or off, focus on an object or at a distance, f-stop.",
    params=s.obj({
        "camera": OBJECT,
        "enabled": s.boolean(),
        "focus_object": OBJECT,
        "focus_distance": s.number(0, 100000),
        "fstop": s.number(0.5, 64),
    }, required=("camera", "enabled")),
    result=s.obj({"camera": s.string(), "enabled": s.boolean(), "focus_object": s.nullable(s.string()),
                  "focus_distance": s.number(), "fstop": s.number()},
                 required=("camera", "enabled", "focus_object", "focus_distance", "fstop")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def set_camera_dof(ctx, params):
    cam = get_camera(params["camera"])
    if "focus_object" in params and "focus_distance" in params:
        raise CommandError("invalid_params", "give focus_object or focus_distance, not both")
    focus = get_object(params["focus_object"]) if "focus_object" in params else None
    if focus == cam:
        raise invalid_target("a camera cannot focus on itself")
    ctx.delta.touch_data_users(cam)
    dof = cam.data.dof
    dof.use_dof = params["enabled"]
    if focus is not None:
        dof.focus_object = focus
    if "focus_distance" in params:
        dof.focus_object = None
        dof.focus_distance = params["focus_distance"]
    if "fstop" in params:
        dof.aperture_fstop = params["fstop"]
    return {"camera": cam.name, "enabled": dof.use_dof, "focus_object": dof.focus_object.name if dof.focus_object else None,
            "focus_distance": round(dof.focus_distance, 5), "fstop": round(dof.aperture_fstop, 5)}


LENS_FIELDS = (("type", "type"), ("lens", "lens"), ("ortho_scale", "ortho_scale"), ("sensor_width", "sensor_width"),
               ("sensor_fit", "sensor_fit"), ("shift_x", "shift_x"), ("shift_y", "shift_y"),
               ("clip_start", "clip_start"), ("clip_end", "clip_end"))


@command(
    effect="mutate",
    summary="Lens and sensor of a camera: projection type, focal length, ortho scale, sensor width and fit, shift, clipping.",
    params=s.obj({
        "camera": OBJECT,
        "type": s.enum(("PERSP", "ORTHO", "PANO")),
        "lens": s.number(1, 5000, description="Focal length in millimetres"),
        "ortho_scale": s.number(exclusive_minimum=0, maximum=100000),
        "sensor_width": s.number(1, 100, description="Millimetres"),
        "sensor_fit": s.enum(("AUTO", "HORIZONTAL", "VERTICAL")),
        "shift_x": s.number(-2, 2),
        "shift_y": s.number(-2, 2),
        "clip_start": s.number(exclusive_minimum=0, maximum=100000),
        "clip_end": s.number(exclusive_minimum=0, maximum=1000000),
    }, required=("camera",), min_properties=2),
    result=s.obj({k: (s.string() if k in ("type", "sensor_fit") else s.number()) for k, _ in LENS_FIELDS} | {
        "camera": s.string(), "angle": s.number(description="Field of view in radians")}, required=tuple(k for k, _ in LENS_FIELDS) + ("camera", "angle")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def set_camera_lens(ctx, params):
    cam = get_camera(params["camera"])
    data = cam.data
    start = params.get("clip_start", data.clip_start)
    end = params.get("clip_end", data.clip_end)
    if end <= start:
        raise CommandError("invalid_params", "clip_end (%g) must be greater than clip_start (%g)" % (end, start))
    ctx.delta.touch_data_users(cam)
    for key, attr in LENS_FIELDS:
        if key in params:
            setattr(data, attr, params[key])
    out = {k: (getattr(data, a) if k in ("type", "sensor_fit") else round(getattr(data, a), 5)) for k, a in LENS_FIELDS}
    out.update(camera=cam.name, angle=round(data.angle, 5))
    return out
