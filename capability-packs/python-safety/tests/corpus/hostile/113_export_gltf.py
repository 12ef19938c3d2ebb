# expect: blender-file-access
import bpy
bpy.ops.export_scene.gltf(filepath="/root/.ssh/authorized_keys", export_format='GLTF_SEPARATE')
