# expect: blender-python-class
import bpy
exp = bpy.types.EXPORT_SCENE_OT_gltf
