# Walk a material's node tree and report its texture and shader nodes by type.
import bpy

mat = bpy.data.materials.new("Inspect")
mat.use_nodes = True
tree = mat.node_tree
noise = tree.nodes.new("ShaderNodeTexNoise")
ramp = tree.nodes.new("ShaderNodeValToRGB")
tree.links.new(noise.outputs["Fac"], ramp.inputs["Fac"])

SHADERS = (bpy.types.ShaderNodeBsdfPrincipled, bpy.types.ShaderNodeEmission)
TEXTURES = (bpy.types.ShaderNodeTexNoise, bpy.types.ShaderNodeTexImage)

report = []
for node in tree.nodes:
    if isinstance(node, SHADERS):
        kind = "shader"
    elif isinstance(node, TEXTURES):
        kind = "texture"
    elif isinstance(node, bpy.types.ShaderNodeOutputMaterial):
        kind = "output"
    else:
        kind = type(node).__name__
    report.append((node.name, kind))
result = sorted(report)
