import bpy

mat = bpy.data.materials.new("Marble")
mat.use_nodes = True
nt = mat.node_tree
nodes = nt.nodes
links = nt.links

bsdf = nodes["Principled BSDF"]
noise = nodes.new("ShaderNodeTexNoise")
noise.location = (-600, 300)
noise.inputs["Scale"].default_value = 8.0
noise.inputs["Detail"].default_value = 12.0

ramp = nodes.new("ShaderNodeValToRGB")
ramp.location = (-350, 300)
ramp.color_ramp.elements[0].color = (0.05, 0.05, 0.06, 1.0)
ramp.color_ramp.elements[1].color = (0.95, 0.95, 0.92, 1.0)

links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])

for socket in bsdf.inputs:
    if socket.is_linked:
        print("linked:", socket.name)

obj = bpy.context.active_object
if obj is not None and obj.type == 'MESH':
    obj.active_material = mat
    print("Marble applied to", obj.name)
