"""list_materials reads the Principled BSDF's inputs by name (transmission, IOR, emission,
alpha, subsurface, coat, sheen), for materials capstan made and materials it did not,
and says which shaders feed the surface when there is no Principled BSDF."""

import bpy
import pytest

from lookdev_support import fresh  # noqa: F401

BASE = dict(color1=[0.9, 0.9, 0.9, 1], color2=[0.1, 0.1, 0.1, 1], scale=2, roughness=0.05, ior=1.45, density=0.2, emission_strength=7)


def one(client, name):
    r = client.ok("list_materials", material=name)
    assert r["total"] == 1
    return r["materials"][0]


def test_glass_reads_back_transmission_and_ior(fresh):
    fresh.ok("build_node_material", name="RbGlass", preset="glass", **BASE)
    m = one(fresh, "RbGlass")
    assert m["principled"] and m["transmission"] == 1.0 and m["ior"] == pytest.approx(1.45, abs=1e-5)
    assert [s["type"] for s in m["surface"]] == ["ShaderNodeBsdfPrincipled"]
    assert m["linked_inputs"] == []


def test_principled_emission_set_through_set_material(fresh):
    fresh.ok("set_material", object="Cube", material="RbGlow", emission_color=[1, 0.5, 0, 1], emission_strength=12)
    m = one(fresh, "RbGlow")
    assert m["emission_strength"] == 12.0 and m["emission_color"] == pytest.approx([1, 0.5, 0, 1])
    assert m["objects"] == ["Cube"]


def test_a_material_capstan_did_not_make(fresh):
    mat = bpy.data.materials.new("RbHand")
    if hasattr(mat, "use_nodes") and not mat.use_nodes:
        mat.use_nodes = True  # Blender 4.5: a new material has no node tree until then
    bsdf = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    bsdf.inputs["Alpha"].default_value = 0.25
    bsdf.inputs["Coat Weight"].default_value = 0.5
    bsdf.inputs["Sheen Weight"].default_value = 0.75
    bsdf.inputs["Subsurface Weight"].default_value = 0.125
    noise = mat.node_tree.nodes.new("ShaderNodeTexNoise")
    mat.node_tree.links.new(noise.outputs["Fac"], bsdf.inputs["Roughness"])
    m = one(fresh, "RbHand")
    assert (m["alpha"], m["coat"], m["sheen"], m["subsurface"]) == (0.25, 0.5, 0.75, 0.125)
    assert m["transmission"] == 0.0 and m["preset"] is None
    assert m["linked_inputs"] == ["Roughness"]


def test_without_a_principled_bsdf_it_says_what_there_is(fresh):
    fresh.ok("build_node_material", name="RbLamp", preset="emissive", **BASE)
    m = one(fresh, "RbLamp")
    assert not m["principled"] and m["emission_strength"] is None and m["transmission"] is None
    assert len(m["surface"]) == 1
    em = m["surface"][0]
    assert em["type"] == "ShaderNodeEmission" and em["inputs"]["Strength"] == 7.0
    assert em["inputs"]["Color"] == pytest.approx([0.9, 0.9, 0.9, 1])

    # A mix of glass and transparency: the mix, then both shaders behind it.
    mat = bpy.data.materials.new("RbMix")
    if hasattr(mat, "use_nodes") and not mat.use_nodes:
        mat.use_nodes = True
    tree = mat.node_tree
    for n in [n for n in tree.nodes if n.type != "OUTPUT_MATERIAL"]:
        tree.nodes.remove(n)
    out = next(n for n in tree.nodes if n.type == "OUTPUT_MATERIAL")
    mix, glass, clear = (tree.nodes.new(t) for t in ("ShaderNodeMixShader", "ShaderNodeBsdfGlass", "ShaderNodeBsdfTransparent"))
    glass.inputs["IOR"].default_value = 1.33
    mix.inputs["Fac"].default_value = 0.3
    tree.links.new(glass.outputs[0], mix.inputs[1])
    tree.links.new(clear.outputs[0], mix.inputs[2])
    tree.links.new(mix.outputs[0], out.inputs["Surface"])
    m = one(fresh, "RbMix")
    assert not m["principled"]
    assert [s["type"] for s in m["surface"]] == ["ShaderNodeMixShader", "ShaderNodeBsdfGlass", "ShaderNodeBsdfTransparent"]
    assert m["surface"][0]["inputs"][mix.inputs[0].name] == 0.3  # Fac or Factor by version and m["surface"][0]["linked_inputs"] == ["Shader", "Shader"]
    assert m["surface"][1]["inputs"]["IOR"] == pytest.approx(1.33, abs=1e-5)


def test_an_empty_material_has_no_surface(fresh):
    mat = bpy.data.materials.new("RbBare")
    if mat.node_tree is not None:  # Blender 5: every material has a tree; empty it
        mat.node_tree.nodes.clear()
    m = one(fresh, "RbBare")
    assert not m["principled"] and m["surface"] == [] and m["alpha"] is None
    assert m["base_color"] == pytest.approx(list(mat.diffuse_color))
