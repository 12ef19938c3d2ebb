"""Product shots: physically based material presets and owned three-light rigs.

`set_product_material` builds a Principled BSDF from one of 16 presets (coat,
transmission, IOR, subsurface, sheen, anisotropy as a product renderer expects), with an
optional noise-driven roughness break-up ("imperfections"), and assigns it to the
object's first slot. `product_light_rig` places a key, a fill and a rim area light
around the meshes' bounds; the lights carry `capstan_role`/`capstan_call` ID properties,
and a later rig updates those same lights in place (nothing is deleted, re-running the
same preset changes nothing). A shadow catcher plane is owned the same way.
"""

import math

import bpy
from mathutils import Vector

from ..core import schema as s
from ..command import command
from ..errors import invalid_target
from .common import OBJECT, get_object, link, rounded, scene
from .materials import _principled, _socket

# Principled inputs per preset: base colour (linear), metallic, roughness and extras.
MATERIALS = {
    "glossy_plastic": ((0.8, 0.05, 0.05), 0.0, 0.15, {"Coat Weight": 0.5, "Coat Roughness": 0.05, "IOR": 1.46}),
    "matte_plastic": ((0.6, 0.6, 0.6), 0.0, 0.6, {"IOR": 1.46}),
    "brushed_aluminum": ((0.91, 0.92, 0.92), 1.0, 0.35, {"Anisotropic": 0.6}),
    "polished_chrome": ((0.55, 0.556, 0.554), 1.0, 0.03, {}),
    "gold": ((1.0, 0.766, 0.336), 1.0, 0.15, {}),
    "rose_gold": ((0.98, 0.73, 0.62), 1.0, 0.2, {}),
    "copper": ((0.955, 0.637, 0.538), 1.0, 0.25, {}),
    "clear_glass": ((1.0, 1.0, 1.0), 0.0, 0.0, {"Transmission Weight": 1.0, "IOR": 1.45}),
    "frosted_glass": ((1.0, 1.0, 1.0), 0.0, 0.35, {"Transmission Weight": 1.0, "IOR": 1.45}),
    "tinted_glass": ((0.3, 0.55, 0.45), 0.0, 0.02, {"Transmission Weight": 1.0, "IOR": 1.5}),
    "ceramic_glazed": ((0.95, 0.95, 0.93), 0.0, 0.3, {"Coat Weight": 1.0, "Coat Roughness": 0.02, "IOR": 1.5}),
    "rubber_matte": ((0.02, 0.02, 0.02), 0.0, 0.9, {"Specular IOR Level": 0.3}),
    "fabric_cotton": ((0.7, 0.7, 0.68), 0.0, 1.0, {"Sheen Weight": 1.0, "Sheen Roughness": 0.5}),
    "leather": ((0.15, 0.07, 0.035), 0.0, 0.55, {"Coat Weight": 0.2, "Coat Roughness": 0.4, "Subsurface Weight": 0.05}),
    "silk_satin": ((0.75, 0.1, 0.25), 0.0, 0.3, {"Sheen Weight": 0.8, "Anisotropic": 0.5}),
    "white_product": ((0.9, 0.9, 0.9), 0.0, 0.4, {}),
}
NOISE, RANGE = "capstan_imperfections_noise", "capstan_imperfections_range"
EXTRAS = ("IOR", "Transmission Weight", "Coat Weight", "Coat Roughness", "Subsurface Weight", "Sheen Weight",
          "Sheen Roughness", "Anisotropic", "Specular IOR Level")
NAME = s.string(1, s.NAME_MAX, pattern=r"^[A-Za-z0-9_. -]{1,63}$")


def _imperfections(mat, node, on, roughness):
    tree = mat.node_tree
    for name in (NOISE, RANGE):
        if name in tree.nodes:
            tree.nodes.remove(tree.nodes[name])
    if not on:
        return
    noise = tree.nodes.new("ShaderNodeTexNoise")
    noise.name, noise.location = NOISE, (node.location.x - 500, node.location.y - 250)
    noise.inputs["Scale"].default_value, noise.inputs["Detail"].default_value = 40.0, 4.0
    ramp = tree.nodes.new("ShaderNodeMapRange")
    ramp.name, ramp.location = RANGE, (node.location.x - 250, node.location.y - 250)
    ramp.inputs["To Min"].default_value = max(0.0, roughness - 0.08)
    ramp.inputs["To Max"].default_value = min(1.0, roughness + 0.08)
    tree.links.new(noise.outputs["Fac"], ramp.inputs["Value"])
    tree.links.new(ramp.outputs["Result"], _socket(node, "Roughness"))


@command(
    effect="mutate",
    summary="Build a product PBR material from one of 16 presets (coat, transmission, IOR, sheen, ...), optional roughness imperfections, assigned to slot 0.",
    params=s.obj({
        "object": OBJECT,
        "preset": s.enum(tuple(MATERIALS)),
        "material": NAME,
        "color_override": s.ref("rgba"),
        "roughness_override": s.number(0, 1),
        "add_imperfections": s.boolean("Noise-driven roughness break-up (default false)"),
    }, required=("object", "preset")),
    result=s.obj({
        "object": s.string(), "material": s.string(), "created": s.boolean(), "preset": s.string(),
        "base_color": s.ref("rgba"), "metallic": s.number(), "roughness": s.number(),
        "inputs": s.obj(additional=s.number()), "imperfections": s.boolean(),
    }, required=("object", "material", "created", "preset", "base_color", "metallic", "roughness", "inputs", "imperfections")),
    errors=("not_found", "invalid_target", "unsupported"),
)
def set_product_material(ctx, params):
    obj = get_object(params["object"])
    if obj.data is None or not hasattr(obj.data, "materials"):
        raise invalid_target("object %r (%s) cannot hold materials" % (obj.name, obj.type))
    preset = params["preset"]
    color, metallic, roughness, extras = MATERIALS[preset]
    color = list(params.get("color_override", list(color) + [1.0]))
    roughness = params.get("roughness_override", roughness)
    ctx.delta.touch_data_users(obj)
    name = params.get("material") or "%s_%s" % (obj.name[:40], preset)
    mat = bpy.data.materials.get(name)
    created = mat is None
    if created:
        mat = ctx.delta.created_datablock("materials", bpy.data.materials.new(name))
    else:
        ctx.delta.touch_datablock("materials", mat)
    node = _principled(mat)
    _socket(node, "Base Color").default_value = color
    _socket(node, "Metallic").default_value = metallic
    _socket(node, "Roughness").default_value = roughness
    for socket in EXTRAS:  # reset what another preset may have set, then apply this one's
        default = {"IOR": 1.5, "Coat Roughness": 0.03, "Sheen Roughness": 0.5, "Specular IOR Level": 0.5}.get(socket, 0.0)
        _socket(node, socket).default_value = extras.get(socket, default)
    mat.diffuse_color, mat.metallic, mat.roughness = color, metallic, roughness
    mat["capstan_preset"] = preset
    _imperfections(mat, node, params.get("add_imperfections", False), roughness)
    if len(obj.data.materials) == 0:
        obj.data.materials.append(mat)
    else:
        obj.data.materials[0] = mat
    return {
        "object": obj.name, "material": mat.name, "created": created, "preset": preset,
        "base_color": rounded(_socket(node, "Base Color").default_value), "metallic": round(metallic, 5),
        "roughness": round(roughness, 5), "inputs": {k: round(_socket(node, k).default_value, 5) for k in EXTRAS},
        "imperfections": NOISE in mat.node_tree.nodes,
    }


# Rig per preset: (energy W, colour, area size m, direction from the centre) for key, fill, rim.
REFERENCE_RADIUS = 3 ** 0.5
RIGS = {
    "product_studio": ((1000, (1, 1, 1), 2.0), (400, (1, 1, 1), 3.0), (600, (1, 1, 1), 1.5)),
    "jewelry": ((1500, (1, 1, 1), 0.5), (300, (1, 1, 1), 2.0), (1200, (1, 1, 1), 0.5)),
    "cosmetics": ((800, (1, 0.95, 0.9), 3.0), (500, (1, 0.97, 0.95), 3.0), (400, (1, 1, 1), 2.0)),
    "electronics": ((1200, (0.9, 0.95, 1), 1.5), (200, (0.9, 0.95, 1), 2.0), (1500, (0.8, 0.9, 1), 1.0)),
    "automotive": ((3000, (1, 1, 1), 6.0), (800, (1, 1, 1), 6.0), (2500, (1, 1, 1), 3.0)),
    "food_product": ((900, (1, 0.9, 0.75), 2.5), (450, (1, 0.95, 0.85), 3.0), (500, (1, 0.95, 0.9), 1.5)),
}
ROLES = ("key", "fill", "rim")
DIRECTIONS = {"key": (1.0, -1.0, 1.0), "fill": (-1.2, -0.8, 0.5), "rim": (0.0, 1.4, 1.2)}
CATCHER = "product_shadow_catcher"


def _owned(role):
    for obj in bpy.data.objects:
        if obj.get("capstan_role") == role:
            return obj
    return None


def _bounds(sc):
    corners = [o.matrix_world @ Vector(c) for o in sc.objects if o.type == "MESH"
               and o.get("capstan_role") not in (CATCHER, "product_backdrop") and o.visible_get() and not o.hide_render for c in o.bound_box]
    if not corners:
        return Vector((0, 0, 0)), 1.0, 0.0
    lo = Vector(tuple(min(c[i] for c in corners) for i in range(3)))
    hi = Vector(tuple(max(c[i] for c in corners) for i in range(3)))
    return (lo + hi) / 2, max((hi - lo).length / 2, 0.01), lo.z


def _light(ctx, role, preset, spec, center, radius):
    energy, color, size = spec
    obj = _owned("product_" + role)
    name = "Product %s" % role.capitalize()
    if obj is None or obj.type != "LIGHT":
        data = bpy.data.lights.new(name, "AREA")
        obj = bpy.data.objects.new(name, data)
        link(obj)
        ctx.delta.created(obj)
    else:
        ctx.delta.touch(obj)
        if obj.data.type != "AREA":
            obj.data.type = "AREA"
    d = obj.data
    # The rig scales with the product: lights stand 3 radii away, so energy goes with the
    # square of the radius and size with the radius, and a 10 cm bottle is lit like the
    # 2 m factory cube the presets are calibrated on (radius sqrt(3)).
    k = radius / REFERENCE_RADIUS
    d.energy, d.color, d.shape, d.size = float(energy) * k * k, color, "SQUARE", size * k
    direction = Vector(DIRECTIONS[role]).normalized()
    obj.location = center + direction * radius * 3.0
    obj.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    obj["capstan_role"], obj["capstan_call"] = "product_" + role, "product.lighting:" + preset
    return {"role": role, "name": obj.name, "energy": round(d.energy, 5), "color": rounded(d.color), "size": round(d.size, 5),
            "location": rounded(obj.location)}


def _catcher(ctx, on, center, radius, floor):
    obj = _owned(CATCHER)
    if obj is None and not on:
        return None
    if obj is None:
        size = radius * 8
        me = bpy.data.meshes.new("Product Shadow Catcher")
        h = size / 2
        me.from_pydata([(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)], [], [(0, 1, 2, 3)])
        obj = bpy.data.objects.new("Product Shadow Catcher", me)
        link(obj)
        ctx.delta.created(obj)
        obj.location = (center.x, center.y, floor)
        obj["capstan_role"], obj["capstan_call"] = CATCHER, "product.lighting"
    else:
        ctx.delta.touch(obj)
    obj.is_shadow_catcher = on
    obj.hide_render = obj.hide_viewport = not on
    return obj.name


@command(
    effect="mutate",
    summary="Place (or update in place) an owned key/fill/rim area-light rig for a product preset around the meshes, with an owned shadow catcher.",
    params=s.obj({
        "preset": s.enum(tuple(RIGS)),
        "shadow_catcher": s.boolean("Owned shadow-catcher plane under the meshes (default true, unless an owned product backdrop "
                                    "is already the floor; false hides an existing one)"),
    }, required=("preset",)),
    result=s.obj({
        "preset": s.string(),
        "lights": s.array(s.obj({"role": s.enum(ROLES), "name": s.string(), "energy": s.number(), "color": s.array(s.number(), 3, 3),
                                 "size": s.number(), "location": s.ref("vec3")},
                                required=("role", "name", "energy", "color", "size", "location")), 3, 3),
        "center": s.ref("vec3"), "radius": s.number(), "shadow_catcher": s.nullable(s.string()),
    }, required=("preset", "lights", "center", "radius", "shadow_catcher")),
)
def product_light_rig(ctx, params):
    sc = scene()
    preset = params["preset"]
    center, radius, floor = _bounds(sc)
    lights = [_light(ctx, role, preset, spec, center, radius) for role, spec in zip(ROLES, RIGS[preset])]
    # A backdrop (product.backdrop) is already the floor: a catcher plane on top of it
    # would render as the world's colour where the backdrop should show.
    has_backdrop = any(o.get("capstan_role") == "product_backdrop" for o in sc.objects)
    catcher = _catcher(ctx, params.get("shadow_catcher", not has_backdrop), center, radius, floor)
    return {"preset": preset, "lights": lights, "center": rounded(center), "radius": round(radius, 5),
            "shadow_catcher": catcher}
