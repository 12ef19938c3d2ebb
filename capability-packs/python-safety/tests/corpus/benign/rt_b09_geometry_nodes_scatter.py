import bpy

bpy.ops.mesh.primitive_plane_add(size=20)
ground = bpy.context.active_object
ground.name = "Ground"

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=1, radius=0.3, location=(0, 0, -10))
pebble = bpy.context.active_object
pebble.name = "Pebble"
pebble.hide_render = True

tree = bpy.data.node_groups.new("Scatter", 'GeometryNodeTree')
tree.interface.new_socket("Geometry", in_out='INPUT', socket_type='NodeSocketGeometry')
tree.interface.new_socket("Geometry", in_out='OUTPUT', socket_type='NodeSocketGeometry')

n = tree.nodes
gin = n.new("NodeGroupInput"); gin.location = (-600, 0)
gout = n.new("NodeGroupOutput"); gout.location = (600, 0)
dist = n.new("GeometryNodeDistributePointsOnFaces"); dist.location = (-300, 0)
dist.inputs["Density"].default_value = 3.0
inst = n.new("GeometryNodeInstanceOnPoints"); inst.location = (0, 0)
info = n.new("GeometryNodeObjectInfo"); info.location = (-300, -250)
info.inputs["Object"].default_value = pebble
join = n.new("GeometryNodeJoinGeometry"); join.location = (300, 0)

tree.links.new(gin.outputs["Geometry"], dist.inputs["Mesh"])
tree.links.new(dist.outputs["Points"], inst.inputs["Points"])
tree.links.new(info.outputs["Geometry"], inst.inputs["Instance"])
tree.links.new(inst.outputs["Instances"], join.inputs["Geometry"])
tree.links.new(gin.outputs["Geometry"], join.inputs["Geometry"])
tree.links.new(join.outputs["Geometry"], gout.inputs["Geometry"])

mod = ground.modifiers.new("Scatter", 'NODES')
mod.node_group = tree
