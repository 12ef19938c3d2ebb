import bpy

scene = bpy.context.scene
world = scene.world or bpy.data.worlds.new("World")
scene.world = world
world.use_nodes = True

nodes = world.node_tree.nodes
links = world.node_tree.links
background = nodes.get("Background") or nodes.new("ShaderNodeBackground")
sky = nodes.new("ShaderNodeTexSky")
sky.location = (-300, 300)
sky.sun_elevation = 0.35
sky.sun_rotation = 1.2

links.new(sky.outputs["Color"], background.inputs["Color"])
background.inputs["Strength"].default_value = 0.8

print("world:", world.name, "strength", background.inputs["Strength"].default_value)
