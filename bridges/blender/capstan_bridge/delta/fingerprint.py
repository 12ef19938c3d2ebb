"""Fingerprints: comparable values of one object, datablock or settings domain.

Each object's fingerprint is a dict of aspects (`transform`, `modifiers`, ...), so a
delta can say which aspects changed. Values are plain tuples of rounded numbers,
strings and digests; no bpy reference survives in them. Generic RNA reading
(`rna_values`) covers the many types of modifiers, constraints, lights and cameras
without a hand-kept field list; geometry is digested (blake2b over `foreach_get`
buffers), so its cost is the object's own size, never the scene's.

Only original (not evaluated) data is read: evaluation would make one object's
fingerprint depend on others (a parent's move changes a child's evaluated matrix).
"""

import array
import hashlib

import bpy

DIGITS = 5

# RNA properties that are bookkeeping, UI state or derived, not the thing itself.
_SKIP = frozenset({
    "rna_type", "name_full", "original", "is_evaluated", "session_uid", "users", "use_fake_user", "use_extra_user",
    "is_runtime_data", "tag", "is_missing", "is_embedded_data", "is_library_indirect", "library",
    "library_weak_reference", "override_library", "preview", "asset_data", "id_type", "is_editmode",
    "show_expanded", "is_active", "is_override_data", "select", "show_options", "show_preview", "location_absolute",
    "dimensions", "width", "height", "bl_idname", "bl_label", "bl_description", "bl_icon", "bl_static_type",
    "bl_width_default", "bl_width_min", "bl_width_max", "bl_height_default", "bl_height_min", "bl_height_max",
    "persistent_uid", "is_valid", "use_apply_on_spline", "internal_links", "warning_propagation",
    "use_nodes",  # deprecated in 5.0 (always on); reading it warns
    "face_count",  # Decimate's evaluated output, updated by evaluation, not a setting
})


def _round(v):
    return round(float(v), DIGITS)


def _plain(value):
    """A comparable plain value of an RNA value (numbers rounded, IDs by name)."""
    if isinstance(value, float):
        return _round(value)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, bpy.types.ID):
        return ("id", value.name)
    if isinstance(value, set):
        return tuple(sorted(value))
    try:
        return tuple(_plain(v) for v in value)
    except TypeError:
        return repr(type(value).__name__)


def rna_values(struct, skip=()):
    """(identifier, value) of every scalar, array, enum, string and ID-pointer property."""
    out = []
    for prop in struct.bl_rna.properties:
        ident = prop.identifier
        if ident in _SKIP or ident in skip or prop.type == "COLLECTION":
            continue
        if prop.type == "POINTER" and not _is_id_type(prop):
            continue
        try:
            value = getattr(struct, ident)
        except (AttributeError, RuntimeError, TypeError):
            continue
        out.append((ident, _plain(value)))
    return tuple(out)


# Settable properties that are not settings of the thing itself: transforms (their own
# aspect), matrices Blender recomputes on evaluation, UI state, animation.
_NOT_SETTINGS = frozenset({
    "matrix_world", "matrix_local", "matrix_basis", "matrix_parent_inverse", "location", "rotation_euler",
    "rotation_quaternion", "rotation_axis_angle", "scale", "active_material_index", "active_shape_key_index",
    "texspace_location", "texspace_size", "mode", "tool_settings",
    "compositing_node_group",  # the render domain's compositor, node group by node group
    "use_stamp_note",  # Scene.use_stamp_note is the text of render.stamp_note_text (the render domain)
})
_NOT_ENTERED = frozenset({"AnimData", "AnimViz", "MotionPath", "ToolSettings", "SequenceEditor", "DisplaySafeAreas",
                          "TransformOrientationSlot", "View3DCursor", "SceneDisplay", "SceneGpencil",
                          "MaterialGPencilStyle", "ColorManagedInputColorspaceSettings"})


def settable_values(struct, depth=1):
    """(identifier, value) of every settable (not read-only) property, and of the nested
    settings groups (render.image_settings, object.cycles, ...) `depth` levels down: what
    the settings commands may change. Collections and other datablocks' contents stay out."""
    out = []
    for prop in struct.bl_rna.properties:
        ident = prop.identifier
        if ident in _SKIP or ident in _NOT_SETTINGS or prop.type == "COLLECTION":
            continue
        if prop.type == "POINTER" and not _is_id_type(prop):
            if depth <= 0 or prop.fixed_type is None or prop.fixed_type.identifier in _NOT_ENTERED:
                continue
            if _unstored_group(struct, prop):
                continue
            try:
                nested = getattr(struct, ident)
            except (AttributeError, RuntimeError, TypeError):
                continue
            if nested is not None:
                out.append((ident, settable_values(nested, depth - 1)))
            continue
        if prop.is_readonly:
            continue
        try:
            value = getattr(struct, ident)
        except (AttributeError, RuntimeError, TypeError):
            continue
        # Another datablock by identity, not name: renaming it changes nothing here.
        out.append((ident, ("id", value.session_uid) if isinstance(value, bpy.types.ID) else _plain(value)))
    return tuple(out)


def _unstored_group(struct, prop):
    """An add-on's settings group that holds nothing yet (see `rna_paths.unstored_group`):
    skipped, so that measuring never stores it as a custom property in 4.5."""
    from ..commands.rna_paths import unstored_group

    return unstored_group(struct, prop)


def _is_id_type(prop):
    fixed = getattr(prop, "fixed_type", None)
    try:
        return fixed is not None and issubclass(getattr(bpy.types, fixed.identifier), bpy.types.ID)
    except (AttributeError, TypeError):
        return False


def digest(buffer):
    return hashlib.blake2b(buffer.tobytes(), digest_size=8).hexdigest()


def _floats(collection, attribute, width):
    buf = array.array("f", [0.0]) * (len(collection) * width)
    if len(collection):
        collection.foreach_get(attribute, buf)
    return buf


def _ints(collection, attribute, width=1):
    buf = array.array("i", [0]) * (len(collection) * width)
    if len(collection):
        collection.foreach_get(attribute, buf)
    return buf


def mesh_values(mesh):
    return (
        len(mesh.vertices), len(mesh.edges), len(mesh.polygons), len(mesh.loops),
        digest(_floats(mesh.vertices, "co", 3)),
        digest(_ints(mesh.loops, "vertex_index")),
        digest(_ints(mesh.edges, "vertices", 2)),
        digest(_ints(mesh.polygons, "material_index")),
        tuple(layer.name for layer in mesh.uv_layers),
        tuple(sorted(a.name for a in mesh.attributes)),
        tuple(m.name if m else None for m in mesh.materials),
        # UV coordinates, the active/render UV layer and the seams (uv.* commands).
        tuple(digest(_floats(layer.uv, "vector", 2)) for layer in mesh.uv_layers),
        mesh.uv_layers.active_index, tuple(layer.active_render for layer in mesh.uv_layers),
        digest(_bools(mesh.edges, "use_seam")),
    )


def _bools(collection, attribute):
    buf = array.array("b", [0]) * len(collection)
    if len(collection):
        collection.foreach_get(attribute, buf)
    return buf


def curve_values(curve):
    points = []
    for spline in curve.splines:
        pts = spline.bezier_points if spline.type == "BEZIER" else spline.points
        width = 3 if spline.type == "BEZIER" else 4
        points.append((spline.type, len(pts), digest(_floats(pts, "co", width)), spline.use_cyclic_u))
    return rna_values(curve) + (("splines", tuple(points)),)


def armature_values(armature):
    return tuple(
        (b.name, tuple(_round(v) for v in b.head_local), tuple(_round(v) for v in b.tail_local), b.parent.name if b.parent else None)
        for b in armature.bones
    )


def data_values(obj):
    data = obj.data
    if data is None:
        return (obj.type, obj.empty_display_type, _round(obj.empty_display_size)) if obj.type == "EMPTY" else (obj.type,)
    kind = obj.type
    if kind == "MESH":
        values = mesh_values(data) + settable_values(data)
    elif kind in ("CURVE", "SURFACE", "FONT"):
        values = curve_values(data)
    elif kind == "ARMATURE":
        values = armature_values(data)
    elif kind == "CAMERA":
        values = rna_values(data) + rna_values(data.dof)
    else:
        values = rna_values(data)
    if kind in ("CURVE", "SURFACE", "FONT", "CAMERA", "LIGHT"):
        values += settable_values(data)
    return (kind, data.name) + values


def shape_key_values(obj):
    keys = getattr(obj.data, "shape_keys", None) if obj.data is not None else None
    if keys is None:
        return ()
    return tuple((k.name, _round(k.value), k.mute, k.relative_key.name, digest(_floats(k.data, "co", 3))) for k in keys.key_blocks)


def animation_values(id_block):
    ad = getattr(id_block, "animation_data", None)
    if ad is None:
        return ()
    from ..commands.animation import fcurves_of

    curves = tuple(
        (fc.data_path, fc.array_index, len(fc.keyframe_points), digest(_floats(fc.keyframe_points, "co", 2)),
         tuple(k.interpolation for k in fc.keyframe_points), tuple(k.easing for k in fc.keyframe_points),
         tuple((k.handle_left_type, k.handle_right_type) for k in fc.keyframe_points),
         fc.extrapolation, tuple(m.type for m in fc.modifiers))
        for fc in fcurves_of(id_block)
    )
    return (ad.action.name if ad.action else None, curves, len(ad.drivers), len(ad.nla_tracks))


def physics_values(obj):
    out = []
    if obj.rigid_body is not None:
        out.append(("rigid_body", rna_values(obj.rigid_body)))
    if obj.rigid_body_constraint is not None:
        out.append(("rigid_body_constraint", rna_values(obj.rigid_body_constraint)))
    if obj.field is not None and obj.field.type != "NONE":
        out.append(("field", rna_values(obj.field)))
    if obj.collision is not None and getattr(obj.collision, "use", False):
        out.append(("collision", rna_values(obj.collision)))
    for ps in getattr(obj, "particle_systems", ()):
        out.append(("particles", ps.name, ps.settings.name if ps.settings else None, ps.seed))
    return tuple(out)


def pose_values(obj):
    if obj.pose is None:
        return ()
    return tuple(
        (pb.name, tuple(_round(v) for v in pb.location), tuple(_round(v) for v in pb.rotation_quaternion),
         tuple(_round(v) for v in pb.rotation_euler), tuple(_round(v) for v in pb.scale),
         tuple((c.name, c.type) + rna_values(c) for c in pb.constraints))
        for pb in obj.pose.bones
    )


def custom_values(id_block):
    try:
        keys = [k for k in id_block.keys() if not k.startswith("_")]
    except TypeError:
        return ()
    return tuple((k, repr(id_block[k])[:256]) for k in sorted(keys))


def weights_digest(obj):
    """Digest of a mesh's vertex-group weights; only meshes with groups pay for it."""
    if obj.type != "MESH" or not obj.vertex_groups:
        return None
    h = hashlib.blake2b(digest_size=8)
    for v in obj.data.vertices:
        for g in v.groups:
            h.update(b"%d:%d:%.5f;" % (v.index, g.group, g.weight))
    return h.hexdigest()


def object_aspects(obj):
    """Every aspect of one object, by name."""
    return {
        "transform": (
            tuple(_round(v) for v in obj.location), obj.rotation_mode,
            tuple(_round(v) for v in obj.rotation_euler), tuple(_round(v) for v in obj.rotation_quaternion),
            tuple(_round(v) for v in obj.scale),
        ),
        "visibility": (obj.hide_viewport, obj.hide_render, obj.hide_select, obj.display_type),
        "parent": (
            obj.parent.name if obj.parent else None, obj.parent_type, obj.parent_bone,
            tuple(_round(v) for row in obj.matrix_parent_inverse for v in row),
        ),
        "collections": tuple(sorted(c.name for c in obj.users_collection)),
        "modifiers": tuple((m.name, m.type) + rna_values(m) for m in obj.modifiers),
        "constraints": tuple((c.name, c.type) + rna_values(c) for c in obj.constraints),
        "materials": tuple((s.link, s.material.name if s.material else None) for s in obj.material_slots),
        "data": data_values(obj),
        "vertex_groups": (tuple(g.name for g in obj.vertex_groups), weights_digest(obj)),
        "shape_keys": shape_key_values(obj),
        "animation": animation_values(obj),
        "physics": physics_values(obj),
        "pose": pose_values(obj),
        "custom_properties": custom_values(obj),
        "settings": settable_values(obj),
    }


def node_tree_values(tree):
    if tree is None:
        return None
    nodes = []
    for node in tree.nodes:
        inputs = tuple(
            (s.identifier, _plain(s.default_value) if hasattr(s, "default_value") else None, s.is_linked)
            for s in node.inputs
        )
        nodes.append((node.name, node.bl_idname, rna_values(node, skip=("location",)), inputs))
    links = tuple(sorted(
        (l.from_node.name, l.from_socket.identifier, l.to_node.name, l.to_socket.identifier) for l in tree.links
    ))
    return (tuple(sorted(nodes)), links)


def _material(mat):
    return rna_values(mat) + settable_values(mat) + (("nodes", node_tree_values(mat.node_tree)),)


def _world(world):
    return rna_values(world) + settable_values(world) + (("nodes", node_tree_values(world.node_tree)),)


def _collection(coll):
    return (tuple(sorted(c.name for c in coll.children)), coll.hide_viewport, coll.hide_render, coll.hide_select)


def _image(image):
    return (image.filepath, tuple(image.size), image.source, image.colorspace_settings.name, len(image.packed_files))


def _action(action):
    return (len(action.fcurves),) if hasattr(action, "fcurves") else (len(action.layers), len(action.slots))


def _node_group(tree):
    return node_tree_values(tree)


# Datablock kinds a delta reports, with their bpy.data collection and fingerprint.
DATABLOCKS = {
    "materials": _material,
    "worlds": _world,
    "collections": _collection,
    "images": _image,
    "actions": _action,
    "node_groups": _node_group,
}


def datablock_values(kind, block):
    return DATABLOCKS[kind](block)


def _compositor(scene):
    """The compositor the render runs. From Blender 5.0 the scene names a compositing node
    group (its contents are a `node_groups` datablock); in 4.5 it is a tree embedded in
    the scene, switched on by `use_nodes`, which no datablock reports, so its contents
    count here (while it is switched off it does nothing)."""
    if hasattr(scene, "compositing_node_group"):
        group = scene.compositing_node_group
        return None if group is None else group.name
    return (scene.use_nodes, node_tree_values(scene.node_tree) if scene.use_nodes else None)


def _render(scene):
    r = scene.render
    cycles = getattr(scene, "cycles", None)
    view = scene.view_settings
    return (
        r.engine, r.resolution_x, r.resolution_y, r.resolution_percentage, r.film_transparent, r.fps, r.fps_base,
        r.image_settings.file_format, r.use_motion_blur,
        getattr(cycles, "samples", None), getattr(cycles, "device", None), getattr(cycles, "use_denoising", None),
        scene.eevee.taa_render_samples,
        view.view_transform, view.look, _round(view.exposure), _round(view.gamma),
        _compositor(scene),
        # Everything else the settings commands set: render (image format, stamp, FFmpeg,
        # bake), Cycles, EEVEE, colour management, every view layer with its passes.
        settable_values(r, 2), settable_values(cycles, 1) if cycles is not None else None,
        settable_values(scene.eevee, 1), settable_values(view, 1), settable_values(scene.display_settings, 0),
        tuple((vl.name, settable_values(vl, 1)) for vl in scene.view_layers),
    )


def _world_look(scene):
    world = scene.world
    return None if world is None else (world.name, _world(world))


def _scene(scene):
    rbw = scene.rigidbody_world
    return (
        scene.frame_start, scene.frame_end, scene.frame_current, scene.frame_step,
        scene.camera.name if scene.camera else None,
        scene.world.name if scene.world else None,
        tuple(_round(v) for v in scene.gravity), scene.use_gravity,
        scene.unit_settings.system, _round(scene.unit_settings.scale_length),
        None if rbw is None else rna_values(rbw),
        tuple(sorted(c.name for c in scene.collection.children)),
        settable_values(scene, 0),
        None if rbw is None else settable_values(rbw, 1),
    )


# Scene-level settings domains.
SETTINGS = {
    "render": _render,
    "world": _world_look,
    "scene": _scene,
}


def settings_values(domain):
    return SETTINGS[domain](bpy.context.scene)
