import bpy

bpy.ops.mesh.primitive_cube_add(size=2)
cube = bpy.context.active_object
bpy.ops.object.mode_set(mode='EDIT')
bpy.ops.mesh.select_all(action='SELECT')
bpy.ops.uv.smart_project(angle_limit=1.15, island_margin=0.02)
bpy.ops.object.mode_set(mode='OBJECT')

img = bpy.data.images.new("Checker", width=1024, height=1024)
img.generated_type = 'COLOR_GRID'

mat = bpy.data.materials.new("UVCheck")
mat.use_nodes = True
nt = mat.node_tree
tex = nt.nodes.new("ShaderNodeTexImage")
tex.image = img
tex.location = (-400, 200)
mapping = nt.nodes.new("ShaderNodeMapping")
mapping.location = (-650, 200)
mapping.inputs["Scale"].default_value = (2.0, 2.0, 1.0)
coord = nt.nodes.new("ShaderNodeTexCoord")
coord.location = (-850, 200)
nt.links.new(coord.outputs["UV"], mapping.inputs["Vector"])
nt.links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
nt.links.new(tex.outputs["Color"], nt.nodes["Principled BSDF"].inputs["Base Color"])
cube.data.materials.append(mat)
