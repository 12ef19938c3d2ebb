import bpy

bpy.ops.mesh.primitive_plane_add(size=4)
ground = bpy.context.active_object

tree = bpy.data.node_groups.new("ScatterCubes", 'GeometryNodeTree')
tree.interface.new_socket(name="Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')
tree.interface.new_socket(name="Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')

nodes = tree.nodes
group_in = nodes.new("NodeGroupInput")
group_out = nodes.new("NodeGroupOutput")
distribute = nodes.new("GeometryNodeDistributePointsOnFaces")
instance = nodes.new("GeometryNodeInstanceOnPoints")
cube = nodes.new("GeometryNodeMeshCube")
join = nodes.new("GeometryNodeJoinGeometry")

distribute.inputs["Density"].default_value = 5.0
cube.inputs["Size"].default_value = (0.1, 0.1, 0.1)

links = tree.links
links.new(group_in.outputs["Geometry"], distribute.inputs["Mesh"])
links.new(distribute.outputs["Points"], instance.inputs["Points"])
links.new(cube.outputs["Mesh"], instance.inputs["Instance"])
links.new(instance.outputs["Instances"], join.inputs["Geometry"])
links.new(group_in.outputs["Geometry"], join.inputs["Geometry"])
links.new(join.outputs["Geometry"], group_out.inputs["Geometry"])

for i, node in enumerate(nodes):
    node.location = (i * 220, 0)

mod = ground.modifiers.new("Scatter", 'NODES')
mod.node_group = tree
print("geometry nodes:", [n.bl_idname for n in nodes])
