"""Physics: rigid bodies, cloth, collision, Mantaflow fluids, particle systems, force
fields, and stepping the simulation. Cloth, collision, fluid and particles are
modifiers (data API). Rigid bodies have no data-API constructor: `rigidbody.world_add`
and `rigidbody.object_add` are the only way, run under `context.temp_override` on the
object. Simulations need sequential frames from the start frame, so `simulate` steps
frame by frame (capped at 500 frames) and samples evaluated transforms as it goes."""

import os

import bpy

from .. import file_refs_check as refs_check
from ..core import schema as s
from ..command import command
from ..errors import CommandError, invalid_target, not_found
from .common import OBJECT, VEC3, claim_name, get_object, link, rounded, scene
from .keyframes import touch_animated

MAX_FRAMES = 500
SHAPES = ("BOX", "SPHERE", "CAPSULE", "CYLINDER", "CONE", "CONVEX_HULL", "MESH")
# Blender's own cloth presets (mass kg, tension, compression, shear, bending, air damping).
FABRICS = {
    "cotton": (0.3, 15, 15, 15, 0.5, 1.0),
    "denim": (1.0, 40, 40, 40, 10, 1.0),
    "leather": (0.4, 80, 80, 80, 150, 1.0),
    "rubber": (3.0, 15, 15, 15, 25, 1.0),
    "silk": (0.15, 5, 5, 5, 0.05, 1.0),
}


def _mesh(name):
    obj = get_object(name)
    if obj.type != "MESH":
        raise invalid_target("%s is a %s; physics needs a mesh" % (obj.name, obj.type))
    return obj


def _modifier(obj, kind):
    return next((m for m in obj.modifiers if m.type == kind), None)


@command(
    effect="mutate",
    summary="Make a mesh a rigid body (active or passive), creating the scene's rigid body world if there is none.",
    params=s.obj({
        "object": OBJECT, "type": s.enum(("ACTIVE", "PASSIVE")), "mass": s.number(exclusive_minimum=0, maximum=1e6),
        "friction": s.number(0, 1), "restitution": s.number(0, 1), "shape": s.enum(SHAPES), "kinematic": s.boolean(),
    }, required=("object",)),
    result=s.obj({"object": s.string(), "type": s.string(), "mass": s.number(), "friction": s.number(), "restitution": s.number(),
                  "shape": s.string(), "kinematic": s.boolean(), "world_created": s.boolean()},
                 required=("object", "type", "mass", "friction", "restitution", "shape", "kinematic", "world_created")),
    errors=("not_found", "invalid_target", "blender_error"),
)
def add_rigid_body(ctx, params):
    obj = _mesh(params["object"])
    sc = scene()
    ctx.delta.touch(obj)
    ctx.delta.touch_settings("scene")
    created_world = sc.rigidbody_world is None
    with bpy.context.temp_override(scene=sc, object=obj, active_object=obj, selected_objects=[obj]):
        if created_world:
            bpy.ops.rigidbody.world_add()
        rbw = sc.rigidbody_world
        if rbw.collection is None:
            coll = bpy.data.collections.new("RigidBodyWorld")
            ctx.delta.created_datablock("collections", coll)
            rbw.collection = coll
        else:
            ctx.delta.touch_datablock("collections", rbw.collection)
        if obj.rigid_body is None:
            bpy.ops.rigidbody.object_add()
    rb = obj.rigid_body
    if rb is None:
        raise CommandError("blender_error", "Blender did not make %s a rigid body" % obj.name)
    rb.type = params.get("type", "ACTIVE")
    for key, attr in (("mass", "mass"), ("friction", "friction"), ("restitution", "restitution"), ("kinematic", "kinematic")):
        if key in params:
            setattr(rb, attr, params[key])
    rb.collision_shape = params.get("shape", "CONVEX_HULL")
    return {"object": obj.name, "type": rb.type, "mass": round(rb.mass, 5), "friction": round(rb.friction, 5),
            "restitution": round(rb.restitution, 5), "shape": rb.collision_shape, "kinematic": rb.kinematic,
            "world_created": created_world}


@command(
    effect="mutate",
    summary="Make a mesh cloth with a fabric preset, a quality, an optional pin vertex group and self collision.",
    params=s.obj({
        "object": OBJECT, "fabric": s.enum(tuple(sorted(FABRICS))), "quality": s.integer(1, 20),
        "pin_group": s.string(1, 63), "self_collision": s.boolean(),
    }, required=("object",)),
    result=s.obj({"object": s.string(), "modifier": s.string(), "fabric": s.string(), "mass": s.number(), "quality": s.integer(),
                  "pin_group": s.nullable(s.string()), "self_collision": s.boolean()},
                 required=("object", "modifier", "fabric", "mass", "quality", "pin_group", "self_collision")),
    errors=("not_found", "invalid_target"),
)
def add_cloth(ctx, params):
    obj = _mesh(params["object"])
    pin = params.get("pin_group")
    if pin is not None and pin not in obj.vertex_groups:
        raise not_found("vertex group", pin)
    ctx.delta.touch(obj)
    mod = _modifier(obj, "CLOTH") or obj.modifiers.new("Cloth", "CLOTH")
    fabric = params.get("fabric", "cotton")
    st = mod.settings
    st.mass, st.tension_stiffness, st.compression_stiffness, st.shear_stiffness, st.bending_stiffness, st.air_damping = FABRICS[fabric]
    st.quality = params.get("quality", 5)
    st.vertex_group_mass = pin or ""
    mod.collision_settings.use_self_collision = bool(params.get("self_collision", False))
    return {"object": obj.name, "modifier": mod.name, "fabric": fabric, "mass": round(st.mass, 5), "quality": st.quality,
            "pin_group": pin, "self_collision": mod.collision_settings.use_self_collision}


@command(
    effect="mutate",
    summary="Make a mesh a collider for cloth and particles: outer thickness, friction, damping.",
    params=s.obj({"object": OBJECT, "thickness_outer": s.number(0.001, 1), "friction": s.number(0, 80), "damping": s.number(0, 1)},
                 required=("object",)),
    result=s.obj({"object": s.string(), "modifier": s.string(), "thickness_outer": s.number(), "friction": s.number(),
                  "damping": s.number()}, required=("object", "modifier", "thickness_outer", "friction", "damping")),
    errors=("not_found", "invalid_target"),
)
def add_collision(ctx, params):
    obj = _mesh(params["object"])
    ctx.delta.touch(obj)
    mod = _modifier(obj, "COLLISION") or obj.modifiers.new("Collision", "COLLISION")
    c = obj.collision
    for key, attr in (("thickness_outer", "thickness_outer"), ("friction", "cloth_friction"), ("damping", "damping")):
        if key in params:
            setattr(c, attr, params[key])
    return {"object": obj.name, "modifier": mod.name, "thickness_outer": round(c.thickness_outer, 5),
            "friction": round(c.cloth_friction, 5), "damping": round(c.damping, 5)}


@command(
    effect="mutate",
    summary="Mantaflow: make a mesh a fluid domain (gas or liquid, resolution), a flow (smoke, fire, liquid) or an effector; cache in the session folder.",
    params=s.obj({
        "object": OBJECT, "role": s.enum(("domain", "flow", "effector")), "domain_type": s.enum(("GAS", "LIQUID")),
        "resolution": s.integer(16, 256), "flow_type": s.enum(("SMOKE", "FIRE", "BOTH", "LIQUID")),
        "flow_behavior": s.enum(("INFLOW", "OUTFLOW", "GEOMETRY")),
    }, required=("object", "role")),
    result=s.obj({"object": s.string(), "modifier": s.string(), "role": s.string(), "settings": s.obj(additional=s.any_value())},
                 required=("object", "modifier", "role", "settings")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def add_fluid(ctx, params):
    obj = _mesh(params["object"])
    role = params["role"]
    wrong = {"domain": ("flow_type", "flow_behavior"), "flow": ("domain_type", "resolution"),
             "effector": ("domain_type", "resolution", "flow_type", "flow_behavior")}[role]
    given = [k for k in wrong if k in params]
    if given:
        raise CommandError("invalid_params", "%s does not apply to a %s" % (", ".join(given), role))
    ctx.delta.touch(obj)
    mod = _modifier(obj, "FLUID") or obj.modifiers.new("Fluid", "FLUID")
    mod.fluid_type = role.upper()
    if role == "domain":
        d = mod.domain_settings
        d.domain_type = params.get("domain_type", "GAS")
        d.resolution_max = params.get("resolution", 32)
        d.cache_type = "REPLAY"  # simulated as frames advance, so `simulate` can step it
        d.cache_directory = os.path.join(ctx.output_dir, "fluid_cache_%s" % "".join(c if c.isalnum() else "_" for c in obj.name))
        if d.domain_type == "LIQUID":
            d.use_mesh = True
        settings = {"domain_type": d.domain_type, "resolution": d.resolution_max, "cache_directory": d.cache_directory}
    elif role == "flow":
        f = mod.flow_settings
        f.flow_type = params.get("flow_type", "SMOKE")
        f.flow_behavior = params.get("flow_behavior", "INFLOW" if f.flow_type != "LIQUID" else "GEOMETRY")
        settings = {"flow_type": f.flow_type, "flow_behavior": f.flow_behavior}
    else:
        settings = {"effector_type": mod.effector_settings.effector_type}
    return {"object": obj.name, "modifier": mod.name, "role": role, "settings": settings}


PARTICLES = s.obj({"name": s.string(), "type": s.string(), "count": s.integer(0), "lifetime": s.number(), "emit_from": s.string(),
                   "frame_start": s.number(), "frame_end": s.number(), "render_type": s.string(), "seed": s.integer()},
                  required=("name", "type", "count", "lifetime", "emit_from", "frame_start", "frame_end", "render_type", "seed"))


@command(
    effect="mutate",
    summary="Add a particle system (emitter or hair) to a mesh: count, lifetime, source, frame range, render type, instance object, seed.",
    params=s.obj({
        "object": OBJECT, "name": s.string(1, 63), "type": s.enum(("EMITTER", "HAIR")), "count": s.integer(1, 1000000),
        "lifetime": s.number(1, 10000), "emit_from": s.enum(("VERT", "FACE", "VOLUME")),
        "frame_start": s.integer(-100000, 1000000), "frame_end": s.integer(-100000, 1000000),
        "render_type": s.enum(("HALO", "LINE", "PATH", "OBJECT", "COLLECTION", "NONE")), "instance_object": OBJECT,
        "seed": s.integer(0, 2147483647),
    }, required=("object",)),
    result=s.obj({"object": s.string(), "system": PARTICLES}, required=("object", "system")),
    errors=("not_found", "invalid_target", "invalid_params"),
)
def add_particle_system(ctx, params):
    obj = _mesh(params["object"])
    instance = get_object(params["instance_object"]) if "instance_object" in params else None
    if params.get("render_type") == "OBJECT" and instance is None:
        raise CommandError("invalid_params", "render_type OBJECT needs instance_object")
    start, end = params.get("frame_start", 1), params.get("frame_end", 200)
    if end < start:
        raise CommandError("invalid_params", "frame_end is before frame_start")
    kind = params.get("type", "EMITTER")
    render = params.get("render_type", "HALO" if kind == "EMITTER" else "PATH")
    if kind == "HAIR" and render in ("HALO", "LINE"):
        raise CommandError("invalid_params", "hair renders as PATH, OBJECT, COLLECTION or NONE, not %s" % render)
    ctx.delta.touch(obj)
    mod = obj.modifiers.new(params.get("name", "ParticleSystem"), "PARTICLE_SYSTEM")
    ps = mod.particle_system
    if params.get("name"):
        ps.name = params["name"]
    st = ps.settings
    st.type = kind
    st.count = params.get("count", 1000)
    st.emit_from = params.get("emit_from", "FACE")
    if st.type == "EMITTER":
        st.frame_start, st.frame_end = start, end
        st.lifetime = params.get("lifetime", 50)
    st.render_type = render
    if instance is not None:
        st.instance_object = instance
    ps.seed = params.get("seed", 0)
    return {"object": obj.name, "system": _describe_system(ps)}


def _describe_system(ps):
    st = ps.settings
    return {"name": ps.name, "type": st.type, "count": st.count, "lifetime": round(st.lifetime, 5), "emit_from": st.emit_from,
            "frame_start": round(st.frame_start, 5), "frame_end": round(st.frame_end, 5), "render_type": st.render_type, "seed": ps.seed}


@command(
    effect="destroy",
    summary="Remove a particle system (and its modifier) from a mesh by name.",
    params=s.obj({"object": OBJECT, "name": s.string(1, 63)}, required=("object", "name")),
    result=s.obj({"object": s.string(), "removed": s.string(), "remaining": s.integer(0)}, required=("object", "removed", "remaining")),
    errors=("not_found", "invalid_target"),
)
def remove_particle_system(ctx, params):
    obj = _mesh(params["object"])
    mod = next((m for m in obj.modifiers if m.type == "PARTICLE_SYSTEM" and m.particle_system.name == params["name"]), None)
    if mod is None:
        raise not_found("particle system", params["name"])
    ctx.delta.touch(obj)
    obj.modifiers.remove(mod)
    return {"object": obj.name, "removed": params["name"], "remaining": len(obj.particle_systems)}


FIELD_TYPES = {"MAGNETIC": "MAGNET"}


@command(
    effect="mutate",
    summary="Add a force field (an empty carrying the field): force, wind, vortex, magnetic, turbulence, drag or harmonic.",
    params=s.obj({
        "type": s.enum(("FORCE", "WIND", "VORTEX", "MAGNETIC", "TURBULENCE", "DRAG", "HARMONIC")), "name": OBJECT,
        "location": VEC3, "rotation": VEC3, "strength": s.number(-1000, 1000), "falloff": s.enum(("SPHERE", "TUBE", "CONE")),
        "noise": s.number(0, 10),
    }, required=("type",)),
    result=s.obj({"name": s.string(), "type": s.string(), "strength": s.number(), "falloff": s.string(), "noise": s.number(),
                  "location": VEC3, "renamed_from": s.string()}, required=("name", "type", "strength", "falloff", "noise", "location")),
    errors=(),
)
def add_force_field(ctx, params):
    name = params.get("name") or params["type"].capitalize()
    obj = bpy.data.objects.new(name, None)
    link(obj)
    ctx.delta.created(obj)
    out = {}
    claim_name(obj, params.get("name"), out)
    obj.location = params.get("location", (0, 0, 0))
    obj.rotation_euler = params.get("rotation", (0, 0, 0))
    obj.empty_display_type = "SINGLE_ARROW"
    if obj.field is None:
        # A new object has no field settings; only this operator allocates them.
        with bpy.context.temp_override(object=obj, active_object=obj, selected_objects=[obj]):
            bpy.ops.object.forcefield_toggle()
    f = obj.field
    try:
        # The agent-facing word MAGNETIC is Blender's MAGNET (the same in 4.5 and 5.2).
        f.type = FIELD_TYPES.get(params["type"], params["type"])
        f.strength = params.get("strength", 5.0)
        f.falloff_type = params.get("falloff", "SPHERE")
        f.noise = params.get("noise", 0.0)
    except Exception:
        ctx.delta.removing(obj)
        bpy.data.objects.remove(obj)
        raise
    out.update({"name": obj.name, "type": params["type"], "strength": round(f.strength, 5), "falloff": f.falloff_type,
                "noise": round(f.noise, 5), "location": rounded(obj.location)})
    return out


def _point_caches(sc):
    """The simulation caches of the scene: rigid body world, cloth, particle systems."""
    if sc.rigidbody_world is not None:
        yield sc.rigidbody_world.point_cache
    for obj in sc.objects:
        for m in obj.modifiers:
            if m.type == "CLOTH":
                yield m.point_cache
            elif m.type == "PARTICLE_SYSTEM":
                yield m.particle_system.point_cache


def _sample(names, dg):
    out = {}
    for name in names:
        ev = bpy.data.objects[name].evaluated_get(dg)
        m = ev.matrix_world
        row = {"location": rounded(m.translation), "rotation": [round(v, 4) for v in (a * 57.29577951308232 for a in m.to_euler())]}
        if ev.particle_systems:
            ps = ev.particle_systems[0]
            row["particles_alive"] = sum(1 for p in ps.particles if p.alive_state == "ALIVE")
            row["particles_total"] = len(ps.particles)
        out[name] = row
    return out


@command(
    effect="mutate",
    summary="Run the simulation frame by frame from frame_start to frame_end (at most 500 frames) and sample evaluated transforms.",
    params=s.obj({
        "frame_start": s.integer(0, 1048574), "frame_end": s.integer(0, 1048574), "gravity": VEC3,
        "substeps": s.integer(1, 100), "report_objects": s.array(OBJECT, 1, 16), "sample_every": s.integer(1, 500),
        "mode": s.enum(("step", "bake"), description="step: frames in order (default); bake: bake every cache over the range, then sample"),
    }, required=("frame_start", "frame_end")),
    result=s.obj({
        "frame_start": s.integer(), "frame_end": s.integer(), "frames_stepped": s.integer(0), "mode": s.string(),
        "from_bake": s.boolean(description="The samples come from baked caches (a bake made now or earlier)"),
        "samples": s.array(s.obj({"frame": s.integer(), "objects": s.obj(additional=s.obj(additional=s.any_value()))},
                                 required=("frame", "objects")), max_items=501),
        "final": s.obj(additional=s.obj(additional=s.any_value())),
    }, required=("frame_start", "frame_end", "frames_stepped", "mode", "from_bake", "samples", "final")),
    errors=("not_found", "invalid_params", "unsupported", "blender_error", refs_check.CODE),
    timeout_s=600,
)
def simulate(ctx, params):
    start, end = params["frame_start"], params["frame_end"]
    if end < start:
        raise CommandError("invalid_params", "frame_end is before frame_start")
    if end - start > MAX_FRAMES:
        raise CommandError("invalid_params", "at most %d frames per call (asked %d)" % (MAX_FRAMES, end - start))
    names = [get_object(n).name for n in dict.fromkeys(params.get("report_objects", []))]
    sc = scene()
    domains = [o.name for o in sc.objects if any(m.type == "FLUID" and m.fluid_type == "DOMAIN" for m in o.modifiers)]
    if domains:
        # Stepping a Mantaflow domain in the bpy 5.0.1 wheel fails in its embedded
        # scripts and can abort or crash Blender, so fluids are not stepped here.
        raise CommandError("unsupported", "the scene has fluid domains (%s); simulate does not step Mantaflow fluids in this "
                           "Blender build: bake them in Blender's interface" % ", ".join(domains[:8]))
    refs_check.check_scene(ctx, "the simulation")  # stepping evaluates the scene and writes disk caches
    ctx.delta.touch_settings("scene")
    if "gravity" in params:
        sc.gravity = params["gravity"]
        sc.use_gravity = True
    if "substeps" in params and sc.rigidbody_world is not None:
        sc.rigidbody_world.substeps_per_frame = params["substeps"]
    mode = params.get("mode", "step")
    caches = list(_point_caches(sc))
    for cache in caches:
        cache.frame_start, cache.frame_end = min(cache.frame_start, start), max(cache.frame_end, end)
    touch_animated(ctx)
    if mode == "bake":
        # Point caches bake only through these operators (no data-API bake).
        sc.frame_set(start)
        with bpy.context.temp_override(scene=sc):
            bpy.ops.ptcache.free_bake_all()
            if "FINISHED" not in bpy.ops.ptcache.bake_all(bake=True):
                raise CommandError("blender_error", "Blender did not bake the simulation caches")
    every = params.get("sample_every", max(1, (end - start) // 50 or 1))
    samples = []
    for frame in range(start, end + 1):
        sc.frame_set(frame)
        if names and ((frame - start) % every == 0 or frame == end):
            samples.append({"frame": frame, "objects": _sample(names, bpy.context.evaluated_depsgraph_get())})
    final = samples[-1]["objects"] if samples else {}
    return {"frame_start": start, "frame_end": end, "frames_stepped": end - start + 1, "mode": mode,
            "from_bake": any(c.is_baked for c in caches), "samples": samples, "final": final}
