import bpy

def make_metal_material(name, base_color, roughness=0.25):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    links = mat.node_tree.links
    nodes.clear()

    out = nodes.new("ShaderNodeOutputMaterial")
    out.location = (400, 0)
    bsdf = nodes.new("ShaderNodeBsdfPrincipled")
    bsdf.location = (0, 0)
    bsdf.inputs["Base Color"].default_value = (*base_color, 1.0)
    bsdf.inputs["Metallic"].default_value = 1.0
    bsdf.inputs["Roughness"].default_value = roughness

    noise = nodes.new("ShaderNodeTexNoise")
    noise.location = (-600, -200)
    noise.inputs["Scale"].default_value = 25.0

    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.location = (-350, -200)
    ramp.color_ramp.elements[0].position = 0.4
    ramp.color_ramp.elements[1].position = 0.6

    links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], bsdf.inputs["Roughness"])
    links.new(bsdf.outputs["BSDF"], out.inputs["Surface"])
    return mat

bpy.ops.mesh.primitive_uv_sphere_add(segments=64, ring_count=32, radius=1.2, location=(0, 0, 1.2))
sphere = bpy.context.active_object
bpy.ops.object.shade_smooth()
sphere.data.materials.append(make_metal_material("BrushedGold", (1.0, 0.77, 0.34)))
