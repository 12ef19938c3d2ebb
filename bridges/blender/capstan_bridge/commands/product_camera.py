"""Product camera rigs: an owned pivot empty at the product's bounds centre, an owned
camera parented to it and held on it by a Track To constraint, with depth of field
focused on the pivot, animated by style:

- turntable: the pivot turns 360 degrees, linear, and frame `frames + 1` equals frame 1
  (a seamless loop);
- detail_orbit: a closer camera swings through `orbit_angle` degrees, eased;
- hero_reveal: the camera pushes in from `start_distance` to `end_distance` while the
  lens goes from `start_focal` to `end_focal` and the pivot turns the last 30 degrees.

Keys are written with the data API (`keyframe_insert`); a later rig clears the owned
objects' keys and writes new ones, so the rig never duplicates."""

import math

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from .animation import fcurves_of
from ..errors import CommandError
from .common import OBJECT, get_object, link, rounded, scene

STYLES = ("turntable", "hero_reveal", "detail_orbit")
TRACK = "capstan_track"


def _owned(role):
    return next((o for o in bpy.data.objects if o.get("capstan_role") == role), None)


def _center(obj):
    """The evaluated object's world bounds centre (evaluating brings matrix_world up to date)."""
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    corners = [ev.matrix_world @ Vector(c) for c in ev.bound_box]
    return sum(corners, Vector()) / 8


def _radius(obj):
    """Half the diagonal of the evaluated object's world bounds: the sphere the fill frames."""
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    corners = [ev.matrix_world @ Vector(c) for c in ev.bound_box]
    lo = Vector((min(c[i] for c in corners) for i in range(3)))
    hi = Vector((max(c[i] for c in corners) for i in range(3)))
    return max((hi - lo).length / 2, 1e-4)


def _fill_distance(sc, radius, lens, fill, sensor=36.0):
    """The distance at which a sphere of `radius` spans `fill` of the frame's shorter side
    through a `lens` mm lens (sensor fit AUTO: the sensor width lies along the longer side)."""
    x, y = sc.render.resolution_x * sc.render.pixel_aspect_x, sc.render.resolution_y * sc.render.pixel_aspect_y
    short_side = sensor * min(x, y) / max(x, y)
    half_angle = math.atan(short_side / (2 * lens))
    return radius / (fill * math.tan(half_angle))


def _clear_keys(ctx, block):
    for fc in fcurves_of(block):
        fc.keyframe_points.clear()


def _key(ctx, block, path, frame, index=-1):
    had = block.animation_data is not None and block.animation_data.action is not None
    block.keyframe_insert(data_path=path, frame=frame, index=index)
    if not had:
        ctx.delta.created_datablock("actions", block.animation_data.action)


@command(
    effect="mutate",
    summary="An owned product camera on a pivot at the target's bounds centre, tracked and focused on it, animated as a turntable, hero reveal or detail orbit.",
    params=s.obj({
        "style": s.enum(STYLES),
        "target": OBJECT,
        "frames": s.integer(24, 2400),
        "distance": s.number(exclusive_minimum=0.5, maximum=1000),
        "height": s.number(-1000, 1000),
        "lens": s.number(12, 300),
        "fstop": s.number(0.5, 32),
        "use_dof": s.boolean(),
        "fps": s.integer(12, 120),
        "start_distance": s.number(exclusive_minimum=0.5, maximum=1000),
        "end_distance": s.number(exclusive_minimum=0.5, maximum=1000),
        "start_lens": s.number(12, 300),
        "end_lens": s.number(12, 300),
        "orbit_angle": s.number(1, 360, description="Degrees the detail orbit sweeps"),
        "fill": s.number(0.05, 0.95, description="Instead of a distance: the share of the frame's shorter side the "
                         "target's bounding sphere spans at the last frame (the height follows at 0.3 x distance)"),
    }, required=("style", "target")),
    result=s.obj({
        "camera": s.string(), "pivot": s.string(), "style": s.enum(STYLES), "center": s.ref("vec3"),
        "frame_start": s.integer(), "frame_end": s.integer(), "fps": s.integer(), "lens": s.number(),
        "distance": s.number(), "created": s.boolean(),
    }, required=("camera", "pivot", "style", "center", "frame_start", "frame_end", "fps", "lens", "distance", "created")),
    errors=("not_found", "invalid_params"),
)
def product_camera_rig(ctx, params):
    sc = scene()
    target = get_object(params["target"])
    style, frames = params["style"], params.get("frames", 240)
    distance, height = params.get("distance", 4.0), params.get("height", 1.2)
    lens, fps = params.get("lens", 50.0), params.get("fps", 24)
    center = _center(target)
    if "fill" in params:
        if "distance" in params or "end_distance" in params:
            raise CommandError("invalid_params", "fill sets the distance: give fill or distance/end_distance, not both")
        distance = _fill_distance(sc, _radius(target), params.get("end_lens", lens), params["fill"])
        height = params.get("height", 0.3 * distance)
    pivot, cam = _owned("product_camera_pivot"), _owned("product_camera")
    created = pivot is None or cam is None
    if pivot is None:
        pivot = bpy.data.objects.new("Product Camera Pivot", None)
        link(pivot)
        ctx.delta.created(pivot)
        pivot["capstan_role"] = "product_camera_pivot"
    else:
        ctx.delta.touch(pivot)
    if cam is None:
        cam = bpy.data.objects.new("Product Camera", bpy.data.cameras.new("Product Camera"))
        link(cam)
        ctx.delta.created(cam)
        cam["capstan_role"] = "product_camera"
    else:
        ctx.delta.touch(cam)
    ctx.delta.touch_settings("scene")
    ctx.delta.touch_settings("render")
    for block in (pivot, cam, cam.data):
        _clear_keys(ctx, block)
    pivot.location, pivot.rotation_euler = center, (0, 0, 0)
    cam.parent, cam.rotation_euler = pivot, (0, 0, 0)
    cam.matrix_parent_inverse.identity()
    con = cam.constraints.get(TRACK) or cam.constraints.new("TRACK_TO")
    con.name, con.target, con.track_axis, con.up_axis = TRACK, pivot, "TRACK_NEGATIVE_Z", "UP_Y"
    cam.data.lens = lens
    cam.data.dof.use_dof = params.get("use_dof", True)
    cam.data.dof.focus_object, cam.data.dof.aperture_fstop = pivot, params.get("fstop", 2.8)
    sc.camera = cam
    sc.render.fps, sc.render.fps_base = fps, 1.0
    sc.frame_start, sc.frame_end = 1, frames
    last = frames if style != "turntable" else frames + 1
    if style == "turntable":
        cam.location = (0, -distance, height)
        pivot.rotation_euler.z = 0.0
        _key(ctx, pivot, "rotation_euler", 1, 2)
        pivot.rotation_euler.z = 2 * math.pi
        _key(ctx, pivot, "rotation_euler", last, 2)
        for fc in fcurves_of(pivot):
            for k in fc.keyframe_points:
                k.interpolation = "LINEAR"
        pivot.rotation_euler.z = 0.0
    elif style == "detail_orbit":
        half = math.radians(params.get("orbit_angle", 90.0)) / 2
        cam.location = (0, -distance, height)
        pivot.rotation_euler.z = -half
        _key(ctx, pivot, "rotation_euler", 1, 2)
        pivot.rotation_euler.z = half
        _key(ctx, pivot, "rotation_euler", last, 2)
        pivot.rotation_euler.z = -half
    else:
        start, end = params.get("start_distance", distance * 1.5), params.get("end_distance", distance)
        start_lens, end_lens = params.get("start_lens", max(12.0, lens * 0.7)), params.get("end_lens", lens)
        cam.location, cam.data.lens, pivot.rotation_euler.z = (0, -start, height), start_lens, math.radians(-30)
        _key(ctx, cam, "location", 1)
        _key(ctx, cam.data, "lens", 1)
        _key(ctx, pivot, "rotation_euler", 1, 2)
        cam.location, cam.data.lens, pivot.rotation_euler.z = (0, -end, height), end_lens, 0.0
        _key(ctx, cam, "location", last)
        _key(ctx, cam.data, "lens", last)
        _key(ctx, pivot, "rotation_euler", last, 2)
        cam.location, cam.data.lens, pivot.rotation_euler.z = (0, -start, height), start_lens, math.radians(-30)
        distance, lens = start, start_lens
    return {"camera": cam.name, "pivot": pivot.name, "style": style, "center": rounded(center), "frame_start": 1,
            "frame_end": frames, "fps": fps, "lens": round(lens, 5), "distance": round(distance, 5), "created": created}
