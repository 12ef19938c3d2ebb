"""Creation takes what Blender's add operators take: primitive parameters with the
operator's own defaults, empty display, area-light shape and sizes, text bevel. Each is
checked against the real scene and against Blender's operator for the same parameters."""

import math

import bpy
import pytest

from capstan_bridge.commands import primitives
from lookdev_support import error_code, fresh  # noqa: F401


def counts(name):
    mesh = bpy.data.objects[name].data
    return len(mesh.vertices), len(mesh.edges), len(mesh.polygons)


def dims(name):
    bpy.context.view_layer.update()
    return tuple(round(v, 4) for v in bpy.data.objects[name].dimensions)


def operator_counts(op, **params):
    """What Blender's own add operator makes from the same parameters."""
    getattr(bpy.ops.mesh, op)(**params)
    obj = bpy.context.active_object
    out = len(obj.data.vertices), len(obj.data.edges), len(obj.data.polygons), tuple(round(v, 4) for v in obj.dimensions)
    mesh = obj.data
    bpy.data.objects.remove(obj)
    bpy.data.meshes.remove(mesh)
    return out


CASES = [
    ("cylinder", {"vertices": 12, "radius": 0.5, "depth": 3}, "primitive_cylinder_add", {"vertices": 12, "radius": 0.5, "depth": 3}),
    ("cylinder", {"vertices": 7, "fill_type": "TRIFAN"}, "primitive_cylinder_add", {"vertices": 7, "end_fill_type": "TRIFAN"}),
    ("cylinder", {"vertices": 9, "fill_type": "NOTHING"}, "primitive_cylinder_add", {"vertices": 9, "end_fill_type": "NOTHING"}),
    ("cone", {"vertices": 8, "radius1": 1, "radius2": 0.5, "depth": 1, "fill_type": "TRIFAN"}, "primitive_cone_add",
     {"vertices": 8, "radius1": 1, "radius2": 0.5, "depth": 1, "end_fill_type": "TRIFAN"}),
    ("cone", {}, "primitive_cone_add", {}),
    ("uv_sphere", {"segments": 8, "rings": 4, "radius": 0.5}, "primitive_uv_sphere_add", {"segments": 8, "ring_count": 4, "radius": 0.5}),
    ("ico_sphere", {"subdivisions": 3, "radius": 2}, "primitive_ico_sphere_add", {"subdivisions": 3, "radius": 2}),
    ("torus", {"major_radius": 2, "minor_radius": 0.5, "major_segments": 24, "minor_segments": 8}, "primitive_torus_add",
     {"major_radius": 2, "minor_radius": 0.5, "major_segments": 24, "minor_segments": 8}),
    ("torus", {}, "primitive_torus_add", {}),
    ("circle", {"vertices": 12, "fill_type": "NGON", "radius": 2}, "primitive_circle_add", {"vertices": 12, "fill_type": "NGON", "radius": 2}),
    ("circle", {"vertices": 5, "fill_type": "TRIFAN"}, "primitive_circle_add", {"vertices": 5, "fill_type": "TRIFAN"}),
    ("grid", {"x_subdivisions": 4, "y_subdivisions": 2}, "primitive_grid_add", {"x_subdivisions": 4, "y_subdivisions": 2}),
]


@pytest.mark.parametrize("kind,ours,op,theirs", CASES, ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_primitives_match_the_operator(fresh, kind, ours, op, theirs):  # noqa: F811
    params = {"type": kind, "name": "Made"}
    if ours:
        params["primitive"] = ours
    out = fresh.ok("create_object", **params)
    assert out["delta"]["added"] == ["Made"]
    assert counts("Made") + (dims("Made"),) == operator_counts(op, **theirs)


def test_defaults_come_from_the_running_blenders_operators():
    for kind, (op, names) in primitives.OPERATORS.items():
        props = getattr(bpy.ops.mesh, op).get_rna_type().properties
        assert primitives.operator_defaults(kind) == {ours: props[theirs].default for ours, theirs in names.items()}
    assert primitives.operator_defaults("cylinder")["vertices"] == 32
    assert primitives.operator_defaults("torus")["minor_radius"] == 0.25


def test_size_still_scales_and_explicit_parameters_win(fresh):  # noqa: F811
    fresh.ok("create_object", type="torus", name="Fit", size=2)
    assert dims("Fit") == (2.0, 2.0, 0.4)
    fresh.ok("create_object", type="cylinder", name="Tall", size=1, primitive={"depth": 4})
    assert dims("Tall") == (1.0, 1.0, 4.0)
    fresh.ok("create_object", type="cube", name="Small", size=0.5)
    assert dims("Small") == (0.5, 0.5, 0.5)


def test_a_parameter_the_type_does_not_take_is_refused_and_nothing_is_made(fresh):  # noqa: F811
    before = len(bpy.data.meshes), len(bpy.data.lights), len(bpy.data.objects)
    assert error_code(fresh, "create_object", type="cube", primitive={"vertices": 12}) == "invalid_params"
    assert error_code(fresh, "create_object", type="uv_sphere", primitive={"vertices": 12}) == "invalid_params"
    assert error_code(fresh, "create_object", type="cube", empty={"display_type": "CUBE"}) == "invalid_params"
    assert error_code(fresh, "create_object", type="light_point", light={"shape": "DISK"}) == "invalid_params"
    assert error_code(fresh, "create_object", type="light_area", light={"shape": "DISK", "size_y": 2}) == "invalid_params"
    assert error_code(fresh, "create_object", type="light_sun", size=2) == "invalid_params"
    assert error_code(fresh, "create_object", type="camera", size=2) == "invalid_params"
    assert error_code(fresh, "create_object", type="uv_sphere", primitive={"segments": 100000, "rings": 100000}) == "invalid_params"
    assert (len(bpy.data.meshes), len(bpy.data.lights), len(bpy.data.objects)) == before


def test_empty_display_type_and_size(fresh):  # noqa: F811
    fresh.ok("create_object", type="empty", name="Marker", empty={"display_type": "CUBE", "display_size": 0.5})
    obj = bpy.data.objects["Marker"]
    assert (obj.empty_display_type, round(obj.empty_display_size, 5)) == ("CUBE", 0.5)
    info = fresh.ok("get_object_info", name="Marker")
    assert info["empty"] == {"display_type": "CUBE", "display_size": 0.5}
    fresh.ok("create_object", type="empty", name="Axes", size=3)
    assert (bpy.data.objects["Axes"].empty_display_type, bpy.data.objects["Axes"].empty_display_size) == ("PLAIN_AXES", 1.5)
    fresh.ok("create_object", type="empty", name="Plain")
    assert (bpy.data.objects["Plain"].empty_display_type, bpy.data.objects["Plain"].empty_display_size) == ("PLAIN_AXES", 1.0)


def test_area_light_shape_and_both_sizes(fresh):  # noqa: F811
    fresh.ok("create_object", type="light_area", name="Strip", light={"shape": "RECTANGLE", "size": 4, "size_y": 0.5})
    data = bpy.data.objects["Strip"].data
    assert (data.shape, data.size, data.size_y) == ("RECTANGLE", 4.0, 0.5)
    info = fresh.ok("get_object_info", name="Strip")["light"]
    assert (info["shape"], info["size"], info["size_y"]) == ("RECTANGLE", 4.0, 0.5)
    fresh.ok("create_object", type="light_area", name="Disk", size=3, light={"shape": "DISK"})
    assert (bpy.data.objects["Disk"].data.shape, bpy.data.objects["Disk"].data.size) == ("DISK", 3.0)


def test_spot_cone_and_point_radius(fresh):  # noqa: F811
    fresh.ok("create_object", type="light_spot", name="Beam", light={"spot_size": math.radians(30), "spot_blend": 0.5, "size": 0.2})
    data = bpy.data.objects["Beam"].data
    assert abs(data.spot_size - math.radians(30)) < 1e-6 and abs(data.spot_blend - 0.5) < 1e-6
    assert abs(data.shadow_soft_size - 0.2) < 1e-6
    info = fresh.ok("get_object_info", name="Beam")["light"]
    assert info["radius"] == 0.2 and info["spot_size"] == round(math.radians(30), 5)


def test_create_light_takes_an_area_shape(fresh):  # noqa: F811
    fresh.ok("create_light", type="area", name="Box", location=[0, 0, 3], size=2, shape="ELLIPSE", size_y=1)
    data = bpy.data.objects["Box"].data
    assert (data.shape, data.size, data.size_y) == ("ELLIPSE", 2.0, 1.0)
    assert error_code(fresh, "create_light", type="point", location=[0, 0, 1], shape="DISK") == "invalid_params"
    assert error_code(fresh, "create_light", type="area", location=[0, 0, 1], shape="SQUARE", size_y=1) == "invalid_params"
    assert "Point Light" not in bpy.data.lights


def test_text_bevel_resolution(fresh):  # noqa: F811
    flat = fresh.ok("create_text", text="Hi", name="Flat")
    out = fresh.ok("create_text", text="Hi", name="Deep", extrude=0.2, bevel_depth=0.05, bevel_resolution=1)
    data = bpy.data.objects["Deep"].data
    assert (data.bevel_resolution, round(data.extrude, 5), round(data.bevel_depth, 5)) == (1, 0.2, 0.05)
    assert out["bevel_resolution"] == 1 and out["bevel_depth"] == 0.05
    # extrude and bevel give the letters depth: 2 * (extrude + bevel depth)
    assert flat["dimensions"][2] == 0 and abs(out["dimensions"][2] - 0.5) < 1e-4
    default = fresh.ok("create_text", text="Hi", name="Default", bevel_depth=0.05)
    assert default["bevel_resolution"] == bpy.types.TextCurve.bl_rna.properties["bevel_resolution"].default
