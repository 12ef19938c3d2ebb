import bpy
bpy.ops.Export_Scene.gltf(filepath="/tmp/leak.glb")
