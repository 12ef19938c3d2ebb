"""Scene deltas: what a mutating command really changed, from before/after state."""

import bpy


def _r(values):
    return tuple(round(float(v), 5) for v in values)


def _material_print(mat):
    if mat is None:
        return None
    color = tuple(mat.diffuse_color)
    tree = getattr(mat, "node_tree", None)
    if tree is not None:
        for node in tree.nodes:
            if node.type == "BSDF_PRINCIPLED":
                color = tuple(
                    tuple(i.default_value) if hasattr(i.default_value, "__len__") else i.default_value
                    for i in node.inputs
                    if i.name in ("Base Color", "Metallic", "Roughness", "Emission Color", "Emission Strength")
                )
    return (mat.name, color)


def _keyframes(obj):
    ad = obj.animation_data
    if ad is None or ad.action is None:
        return 0
    from .commands.animation import fcurves_of

    return sum(len(fc.keyframe_points) for fc in fcurves_of(obj))


def fingerprint(obj):
    data = obj.data
    extra = None
    if obj.type == "LIGHT":
        extra = (data.type, round(data.energy, 4), _r(data.color))
    elif obj.type == "CAMERA":
        extra = (round(data.lens, 4), data.dof.use_dof, round(data.dof.focus_distance, 4), round(data.dof.aperture_fstop, 4))
    materials = ()
    if hasattr(data, "materials"):
        materials = tuple(_material_print(m) for m in data.materials)
    return (
        obj.type,
        _r(obj.location),
        _r(obj.rotation_euler),
        _r(obj.scale),
        obj.hide_viewport,
        obj.hide_render,
        data.name if data is not None else None,
        materials,
        extra,
        _keyframes(obj),
    )


def _socket_values(tree):
    out = []
    for node in tree.nodes if tree else []:
        for socket in node.inputs:
            v = getattr(socket, "default_value", None)
            if isinstance(v, (int, float)):
                out.append(round(float(v), 5))
            elif v is not None and hasattr(v, "__len__"):
                out.append(_r(v))
        out.append((node.type, len(node.outputs[0].links) if node.outputs else 0))
    return tuple(out)


def settings():
    """Scene-level state that commands change besides objects."""
    s = bpy.context.scene
    r = s.render
    world = s.world
    cycles = getattr(s, "cycles", None)
    return {
        "render": (r.engine, r.resolution_x, r.resolution_y, r.resolution_percentage, r.film_transparent,
                   getattr(cycles, "samples", None), s.eevee.taa_render_samples),
        "world": None if world is None else (world.name, _r(world.color), _socket_values(world.node_tree)),
        "camera": s.camera.name if s.camera else None,
        "frames": (s.frame_start, s.frame_end, s.frame_current),
    }


def snapshot():
    return {obj.name: fingerprint(obj) for obj in bpy.data.objects}, settings()


def diff(before, after):
    objects_before, settings_before = before
    objects_after, settings_after = after
    return {
        "added": sorted(set(objects_after) - set(objects_before)),
        "removed": sorted(set(objects_before) - set(objects_after)),
        "changed": sorted(n for n in set(objects_before) & set(objects_after) if objects_before[n] != objects_after[n]),
        "settings": sorted(k for k in settings_after if settings_before.get(k) != settings_after[k]),
    }
