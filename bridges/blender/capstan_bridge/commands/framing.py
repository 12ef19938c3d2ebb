"""Camera framing: where an object's evaluated geometry lands in a camera's frame, at
the current frame. A read; nothing is changed.

The projection is `bpy_extras.object_utils.world_to_camera_view`'s, vectorised with
numpy over every point (the same camera-space transform and the same
`Camera.view_frame(scene=...)` corners, so the render resolution, pixel aspect, sensor
fit, shift and orthographic cameras count exactly as they do there); the tests check
the two agree. Frame fractions: x from the left edge, y from the bottom edge, 0..1 is
inside the frame, values outside it are outside. Occlusion by other objects is not
considered: this is where the object is, not whether something hides it."""

import numpy as np

from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target
from . import geometry as g
from .common import OBJECT, get_object, scene

# Up to this many evaluated vertices are projected; a denser mesh is projected by the
# eight corners of the object-space box of its evaluated vertices (a box that encloses
# it, so the bounds can only grow), and one denser than MAX_BOX_VERTICES by Blender's
# bound box of the evaluated object, without reading its vertices.
MAX_VERTICES = 50000
MAX_BOX_VERTICES = 5000000
EPS = 1e-9

BOUNDS = s.obj({"x_min": s.number(), "x_max": s.number(), "y_min": s.number(), "y_max": s.number()},
               required=("x_min", "x_max", "y_min", "y_max"),
               description="Frame fractions of the projected points in front of the camera (0..1 inside; may exceed)")


def _camera(name):
    if name is None:
        cam = scene().camera
        if cam is None:
            raise CommandError("no_camera", "the scene has no active camera; name one or set the scene camera")
        return cam
    cam = get_object(name)
    if cam.type != "CAMERA":
        raise invalid_target("%s is a %s, not a camera" % (cam.name, cam.type))
    return cam


def _world_points(obj, dg):
    """(world points Nx3, source) of the evaluated object."""
    ev = obj.evaluated_get(dg)
    m = np.array(ev.matrix_world, dtype=np.float64)
    if obj.type not in g.GEOMETRY_TYPES:
        return m[:3, 3].reshape(1, 3), "origin"
    mesh = ev.to_mesh()
    try:
        n = len(mesh.vertices)
        if n == 0:
            raise invalid_target("%s has no geometry to frame" % obj.name)
        if n > MAX_BOX_VERTICES:
            # Blender's bound box of the evaluated object (it may be the cage's: larger).
            local, source = np.array([tuple(c) for c in ev.bound_box], dtype=np.float64), "bound_box"
        else:
            co = np.empty(n * 3, dtype=np.float32)
            mesh.vertices.foreach_get("co", co)
            local, source = co.reshape(-1, 3).astype(np.float64), "vertices"
            if n > MAX_VERTICES:
                # The corners of the box of the evaluated vertices, in object space.
                lo, hi = local.min(axis=0), local.max(axis=0)
                local = np.array([[(lo, hi)[i >> k & 1][k] for k in range(3)] for i in range(8)])
                source = "bound_box"
    finally:
        ev.to_mesh_clear()
    return local @ m[:3, :3].T + m[:3, 3], source


def project(sc, cam, points):
    """world_to_camera_view for every row of `points`: an Nx3 array of (x, y, depth)."""
    inv = np.array(cam.matrix_world.normalized().inverted(), dtype=np.float64)
    local = points @ inv[:3, :3].T + inv[:3, 3]
    depth = -local[:, 2]
    frame = [tuple(v) for v in cam.data.view_frame(scene=sc)[:3]]
    min_x, max_x = frame[2][0], frame[1][0]
    min_y, max_y = frame[1][1], frame[0][1]
    if cam.data.type == "ORTHO":
        x, y = local[:, 0], local[:, 1]
    else:
        # view_frame's corners lie at depth d = -corner.z; world_to_camera_view scales
        # them to the point's depth, which is the same as scaling the point to depth d.
        d = -frame[0][2]
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.where(depth == 0.0, np.nan, local[:, 0] * d / depth)
            y = np.where(depth == 0.0, np.nan, local[:, 1] * d / depth)
    out = np.empty_like(local)
    out[:, 0] = (x - min_x) / (max_x - min_x)
    out[:, 1] = (y - min_y) / (max_y - min_y)
    out[:, 2] = depth
    if cam.data.type != "ORTHO":
        out[depth == 0.0, :2] = 0.5  # as world_to_camera_view answers for a point on the camera plane
    return out


def _r(v):
    return round(float(v), 6)


@command(
    effect="read",
    summary="Where an object's evaluated geometry lands in a camera's frame (frame fractions), how much of the frame it fills, and whether it is fully in shot.",
    params=s.obj({
        "object": OBJECT,
        "camera": s.ref("object_name"),
    }, required=("object",)),
    result=s.obj({
        "camera": s.string(), "object": s.string(), "frame": s.integer(),
        "bounds": s.nullable(BOUNDS),
        "width_fraction": s.number(0, 1, description="Width of the part inside the frame, as a share of the frame width"),
        "height_fraction": s.number(0, 1, description="Height of the part inside the frame, as a share of the frame height"),
        "coverage": s.number(0, 1, description="max(width_fraction, height_fraction)"),
        "fully_inside": s.boolean(), "in_front": s.boolean(), "visible": s.boolean(),
        "within_clip": s.boolean(description="Every point lies between the camera's clip start and clip end"),
        "distance": s.number(0, description="Camera to the centre of the object's world bounds, metres"),
        "points": s.integer(1), "source": s.enum(("vertices", "bound_box", "origin")),
    }, required=("camera", "object", "frame", "bounds", "width_fraction", "height_fraction", "coverage", "fully_inside",
                 "in_front", "visible", "within_clip", "distance", "points", "source")),
    errors=("invalid_params", "not_found", "invalid_target", "no_camera"),
)
def camera_framing(ctx, params):
    sc = scene()
    obj = get_object(params["object"])
    cam = _camera(params.get("camera"))
    if cam == obj:
        raise CommandError("invalid_params", "a camera cannot frame itself")
    dg = g.depsgraph()
    points, source = _world_points(obj, dg)
    uvz = project(sc, cam, points)
    depth = uvz[:, 2]
    front = depth > EPS
    lo, hi = points.min(axis=0), points.max(axis=0)
    out = {"camera": cam.name, "object": obj.name, "frame": sc.frame_current, "bounds": None,
           "width_fraction": 0.0, "height_fraction": 0.0, "coverage": 0.0, "fully_inside": False,
           "in_front": bool(front.all()), "visible": False,
           "within_clip": bool(((depth >= cam.data.clip_start) & (depth <= cam.data.clip_end)).all()),
           "distance": _r(np.linalg.norm((lo + hi) / 2.0 - np.array(cam.matrix_world.translation))),
           "points": int(len(points)), "source": source}
    if not front.any():
        return out
    seen = uvz[front]
    x0, y0 = seen[:, :2].min(axis=0)
    x1, y1 = seen[:, :2].max(axis=0)
    out["bounds"] = {"x_min": _r(x0), "x_max": _r(x1), "y_min": _r(y0), "y_max": _r(y1)}
    w = max(0.0, min(x1, 1.0) - max(x0, 0.0))
    h = max(0.0, min(y1, 1.0) - max(y0, 0.0))
    out["width_fraction"], out["height_fraction"], out["coverage"] = _r(w), _r(h), _r(max(w, h))
    out["visible"] = bool(x0 <= 1.0 and x1 >= 0.0 and y0 <= 1.0 and y1 >= 0.0)
    out["fully_inside"] = bool(out["in_front"] and x0 >= -EPS and y0 >= -EPS and x1 <= 1.0 + EPS and y1 <= 1.0 + EPS)
    return out
