import bpy
exp = bpy.ops.export_scene
exp.gltf(filepath="/tmp/leak.glb")
