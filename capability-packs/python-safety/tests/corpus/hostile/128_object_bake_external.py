# expect: blender-file-access
import bpy
bpy.ops.object.bake(type='DIFFUSE', save_mode='EXTERNAL', filepath="/root/.bashrc")
