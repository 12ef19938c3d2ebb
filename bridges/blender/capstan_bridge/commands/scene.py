"""Objects: inspect, create, modify, delete."""

import bpy

from .common import get_object, link, place, rounded, scene
from .errors import CommandError


def _summary(obj):
    data = obj.data
    mats = [m.name for m in getattr(data, "materials", []) if m is not None] if data is not None else []
    return {
        "name": obj.name,
        "type": obj.type,
        "location": rounded(obj.location),
        "rotation": rounded(obj.rotation_euler),
        "scale": rounded(obj.scale),
        "visible": not (obj.hide_viewport or obj.hide_render),
        "parent": obj.parent.name if obj.parent else None,
        "materials": mats,
    }


def get_scene_info(ctx, params):
    s = scene()
    counts = {}
    for obj in s.objects:
        counts[obj.type] = counts.get(obj.type, 0) + 1
    return {
        "scene": s.name,
        "frame": {"start": s.frame_start, "end": s.frame_end, "current": s.frame_current},
        "render": {
            "engine": s.render.engine,
            "resolution": [s.render.resolution_x, s.render.resolution_y],
            "percentage": s.render.resolution_percentage,
            "transparent": s.render.film_transparent,
        },
        "camera": s.camera.name if s.camera else None,
        "world": s.world.name if s.world else None,
        "objects": [_summary(o) for o in s.objects],
        "counts": counts,
    }


def _material_info(mat):
    info = {"name": mat.name}
    tree = getattr(mat, "node_tree", None)
    for node in (tree.nodes if tree else []):
        if node.type == "BSDF_PRINCIPLED":
            for key, socket in (("base_color", "Base Color"), ("metallic", "Metallic"), ("roughness", "Roughness")):
                if socket in node.inputs:
                    v = node.inputs[socket].default_value
                    info[key] = rounded(v) if hasattr(v, "__len__") else round(float(v), 5)
            for socket in ("Emission Color", "Emission"):
                if socket in node.inputs:
                    info["emission_color"] = rounded(node.inputs[socket].default_value)
                    break
            if "Emission Strength" in node.inputs:
                info["emission_strength"] = round(float(node.inputs["Emission Strength"].default_value), 5)
    return info


def get_object_info(ctx, params):
    from .animation import keyframes_of

    obj = get_object(params["name"])
    info = _summary(obj)
    info["dimensions"] = rounded(obj.dimensions)
    info["modifiers"] = [{"name": m.name, "type": m.type} for m in obj.modifiers]
    data = obj.data
    info["material_details"] = [_material_info(m) for m in getattr(data, "materials", []) if m is not None] if data else []
    if obj.type == "MESH":
        info["mesh"] = {"vertices": len(data.vertices), "edges": len(data.edges), "faces": len(data.polygons)}
    elif obj.type == "LIGHT":
        info["light"] = {"type": data.type, "energy": round(data.energy, 5), "color": rounded(data.color)}
    elif obj.type == "CAMERA":
        dof = data.dof
        info["camera"] = {
            "lens": round(data.lens, 5),
            "active": scene().camera == obj,
            "dof": {
                "enabled": dof.use_dof,
                "focus_object": dof.focus_object.name if dof.focus_object else None,
                "focus_distance": round(dof.focus_distance, 5),
                "fstop": round(dof.aperture_fstop, 5),
            },
        }
    info["keyframes"] = keyframes_of(obj)
    return info


def _primitive(kind, size):
    r = size / 2.0
    ops = bpy.ops.mesh
    table = {
        "cube": lambda: ops.primitive_cube_add(size=size),
        "uv_sphere": lambda: ops.primitive_uv_sphere_add(radius=r),
        "ico_sphere": lambda: ops.primitive_ico_sphere_add(radius=r),
        "cylinder": lambda: ops.primitive_cylinder_add(radius=r, depth=size),
        "cone": lambda: ops.primitive_cone_add(radius1=r, depth=size),
        "torus": lambda: ops.primitive_torus_add(major_radius=r, minor_radius=r / 4.0),
        "plane": lambda: ops.primitive_plane_add(size=size),
        "circle": lambda: ops.primitive_circle_add(radius=r),
        "grid": lambda: ops.primitive_grid_add(size=size),
        "monkey": lambda: ops.primitive_monkey_add(size=size),
    }
    before = set(bpy.data.objects)
    table[kind]()
    added = [o for o in bpy.data.objects if o not in before]
    if len(added) != 1:
        raise CommandError("blender_error", "adding a %s created %d objects" % (kind, len(added)))
    return added[0]


def create_object(ctx, params):
    kind = params["type"]
    size = float(params.get("size", 2.0))
    if kind == "empty":
        obj = bpy.data.objects.new(params.get("name", "Empty"), None)
        obj.empty_display_size = size / 2.0
        link(obj)
    else:
        obj = _primitive(kind, size)
    requested = params.get("name")
    if requested:
        obj.name = requested
        if obj.data is not None:
            obj.data.name = requested
    place(obj, params)
    out = _summary(obj)
    if requested and obj.name != requested:
        out["renamed_from"] = requested
    return out


def modify_object(ctx, params):
    obj = get_object(params["name"])
    if "new_name" in params:
        obj.name = params["new_name"]
    place(obj, params)
    if "visible" in params:
        obj.hide_viewport = not params["visible"]
        obj.hide_render = not params["visible"]
    return _summary(obj)


def delete_object(ctx, params):
    obj = get_object(params["name"])
    name = obj.name
    bpy.data.objects.remove(obj, do_unlink=True)
    return {"deleted": name}
